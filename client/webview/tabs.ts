// ARIA tabs (automatic activation): Left/Right/Home/End move between tabs, the panel follows.
import { h } from './dom';

export interface TabSpec<Id extends string> {
  id: Id;
  label: string;
  count?: number;
  panel: HTMLElement;
}

export class Tabs<Id extends string> {
  readonly element: HTMLElement;
  private readonly buttons = new Map<Id, HTMLButtonElement>();
  private readonly panels = new Map<Id, HTMLElement>();
  private active: Id;

  constructor(
    private readonly specs: TabSpec<Id>[],
    active: Id,
    private readonly onChange: (id: Id) => void,
  ) {
    this.active = specs.some((s) => s.id === active) ? active : specs[0]!.id;
    const list = h('div', { class: 'tablist', role: 'tablist', 'aria-label': 'Inspector views' });
    const panels = h('div', { class: 'tabpanels' });
    for (const spec of specs) {
      const button = h(
        'button',
        { type: 'button', role: 'tab', class: 'tab', id: `tab-${spec.id}`, 'aria-controls': `panel-${spec.id}`, onClick: () => this.select(spec.id, true) },
        h('span', { class: 'tab-label' }, spec.label),
        spec.count === undefined ? null : h('span', { class: 'badge' }, String(spec.count)),
      );
      button.addEventListener('keydown', (e) => this.onKey(e, spec.id));
      spec.panel.id = `panel-${spec.id}`;
      spec.panel.setAttribute('role', 'tabpanel');
      spec.panel.setAttribute('aria-labelledby', `tab-${spec.id}`);
      spec.panel.classList.add('tabpanel');
      this.buttons.set(spec.id, button);
      this.panels.set(spec.id, spec.panel);
      list.append(button);
      panels.append(spec.panel);
    }
    this.element = h('div', { class: 'tabs' }, list, panels);
    this.update();
  }

  get current(): Id {
    return this.active;
  }

  select(id: Id, notify = false): void {
    if (!this.buttons.has(id)) return;
    this.active = id;
    this.update();
    if (notify) this.onChange(id);
  }

  focus(id: Id = this.active): void {
    this.buttons.get(id)?.focus();
  }

  private update(): void {
    for (const [id, button] of this.buttons) {
      const on = id === this.active;
      button.setAttribute('aria-selected', String(on));
      button.tabIndex = on ? 0 : -1;
      this.panels.get(id)!.hidden = !on;
    }
  }

  private onKey(e: KeyboardEvent, id: Id): void {
    const ids = this.specs.map((s) => s.id);
    const at = ids.indexOf(id);
    const to =
      e.key === 'ArrowRight' ? ids[(at + 1) % ids.length] : e.key === 'ArrowLeft' ? ids[(at - 1 + ids.length) % ids.length] : e.key === 'Home' ? ids[0] : e.key === 'End' ? ids[ids.length - 1] : undefined;
    if (to === undefined) return;
    e.preventDefault();
    this.select(to, true);
    this.focus(to);
  }
}
