// Tiny DOM helpers: elements are built with createElement and CSSOM only, never from HTML
// strings or `style` attributes, so the page runs under a strict Content Security Policy.
export type Child = Node | string | number | null | undefined | false | Child[];
type AttrValue = string | number | boolean | null | undefined;
export type Attrs = Record<string, AttrValue | ((event: never) => void)>;

function apply(el: Element, attrs: Attrs | null | undefined): void {
  if (!attrs) return;
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    // A `style` attribute is inline style: a strict CSP blocks it. Use classes or el.style.
    if (name === 'style') throw new Error('inline style attributes are not allowed: use a class or element.style');
    if (typeof value === 'function') {
      el.addEventListener(name.replace(/^on/, '').toLowerCase(), value as EventListener);
    } else if (name === 'class') {
      el.setAttribute('class', String(value));
    } else {
      el.setAttribute(name, value === true ? '' : String(value));
    }
  }
}

function append(el: Element, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(typeof child === 'number' ? String(child) : child);
  }
}

/** An HTML element: `h('button', { class: 'primary', onClick: … }, 'Refresh')`. */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs?: Attrs | null, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  apply(el, attrs);
  append(el, children);
  return el;
}

const SVG_NS = 'http://www.w3.org/2000/svg';

/** An SVG element (presentation attributes such as x, width are fine under CSP; `style` is not). */
export function svg<K extends keyof SVGElementTagNameMap>(tag: K, attrs?: Attrs | null, ...children: Child[]): SVGElementTagNameMap[K] {
  const el = document.createElementNS(SVG_NS, tag);
  apply(el, attrs);
  append(el, children);
  return el;
}

/** Text where `backticked` spans are code, as the detector writes its messages. */
export function richText(text: string): DocumentFragment {
  const frag = document.createDocumentFragment();
  text.split('`').forEach((part, i) => {
    if (!part) return;
    frag.append(i % 2 === 1 ? h('code', null, part) : part);
  });
  return frag;
}

/** Ids for ARIA references, unique in this page. */
let nextId = 0;
export function uid(prefix: string): string {
  return `${prefix}-${++nextId}`;
}
