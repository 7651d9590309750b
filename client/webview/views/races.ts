// The races of the last run, one card each: what raced, at which scope, and both accesses with
// their threads (buttons that reveal the line); then the run's other findings.
import { h, richText } from '../dom';
import { categoryLabel, locationLabel, locationTarget, threadLabel } from '../format';
import type { RevealTarget } from '../messages';
import type { Location, PublicFinding, Accessor, MetadataSnapshot } from '../../../server/wire';

export interface RacesContext {
  reveal: (target: RevealTarget) => void;
  /** Show the timeline of accesses to this address. */
  inspect: (address: string) => void;
  /** A card was clicked: highlight it. */
  select: (index: number) => void;
}

export class RacesView {
  readonly element: HTMLElement;
  private readonly cards = new Map<number, HTMLElement>();
  private highlighted: number | null = null;

  constructor(findings: PublicFinding[], private readonly ctx: RacesContext) {
    const races = findings.map((f, i) => [f, i] as const).filter(([f]) => f.kind === 'race');
    const others = findings.map((f, i) => [f, i] as const).filter(([f]) => f.kind !== 'race');
    const summary = h(
      'p',
      { class: 'summary' },
      races.length ? `${races.length} ${races.length === 1 ? 'race' : 'races'}` : 'No races found in the last run.',
      others.length ? ` · ${others.length} other ${others.length === 1 ? 'finding' : 'findings'}` : '',
    );
    const list = h('ol', { class: 'race-list', 'aria-label': 'Races' });
    for (const [f, i] of races) list.append(this.card(f, i));
    this.element = h('div', { class: 'races' }, summary, races.length ? list : null);
    if (others.length) {
      const otherList = h('ol', { class: 'finding-list', 'aria-label': 'Other findings' });
      for (const [f, i] of others) otherList.append(this.otherCard(f, i));
      this.element.append(h('h2', { class: 'section-title' }, 'Other findings'), otherList);
    }
  }

  /** Highlight one finding (or none); with `reveal`, scroll to it and focus it. */
  highlight(index: number | null, reveal = false): boolean {
    if (this.highlighted !== null) {
      const old = this.cards.get(this.highlighted);
      old?.classList.remove('highlighted');
      old?.removeAttribute('aria-current');
    }
    this.highlighted = index;
    const card = index === null ? undefined : this.cards.get(index);
    if (!card) return false;
    card.classList.add('highlighted');
    card.setAttribute('aria-current', 'true');
    if (reveal) {
      card.scrollIntoView({ block: 'nearest' });
      card.focus({ preventScroll: true });
    }
    return true;
  }

  private card(f: PublicFinding, index: number): HTMLElement {
    const titleId = `finding-${index}-message`;
    const earlier = f.related[0];
    const extra = f.related.slice(1);
    const card = h(
      'li',
      { class: 'race card', id: `finding-${index}`, tabindex: -1, 'aria-labelledby': titleId, 'data-finding': index },
      h(
        'div',
        { class: 'card-head' },
        h('span', { class: `badge category category-${f.category}` }, categoryLabel(f.category)),
        f.scope ? h('span', { class: 'badge scope' }, `${f.scope} scope`) : null,
        f.address ? h('code', { class: 'address' }, f.address) : null,
        f.count > 1 ? h('span', { class: 'muted count', title: 'How often this pair of instructions raced' }, `×${f.count}`) : null,
      ),
      h('p', { class: 'message', id: titleId }, richText(f.message)),
      h(
        'div',
        { class: 'accesses' },
        this.accessButton('Racing access', f.location, f.accessor, null, 'current'),
        earlier ? this.accessButton('Earlier access', earlier.location, f.previousAccessor, earlier.message, 'earlier') : null,
        extra.map((r) => this.accessButton('Related', r.location, undefined, r.message, 'related')),
      ),
      f.metadata ? snapshot(f.metadata) : null,
      f.address
        ? h(
            'div',
            { class: 'card-actions' },
            h('button', { type: 'button', class: 'secondary inspect', onClick: () => this.ctx.inspect(f.address!) }, 'Show accesses to ', h('code', null, f.address)),
          )
        : null,
    );
    card.addEventListener('click', (e) => {
      if (!(e.target as Element).closest('button')) this.ctx.select(index);
    });
    this.cards.set(index, card);
    return card;
  }

  private otherCard(f: PublicFinding, index: number): HTMLElement {
    const titleId = `finding-${index}-message`;
    const card = h(
      'li',
      { class: `finding card severity-${f.severity}`, id: `finding-${index}`, tabindex: -1, 'aria-labelledby': titleId, 'data-finding': index },
      h('div', { class: 'card-head' }, h('span', { class: 'badge category' }, categoryLabel(f.category)), h('span', { class: 'muted' }, f.severity)),
      h('p', { class: 'message', id: titleId }, richText(f.message)),
      h('div', { class: 'accesses' }, this.accessButton('Location', f.location, undefined, null, 'current')),
    );
    card.addEventListener('click', (e) => {
      if (!(e.target as Element).closest('button')) this.ctx.select(index);
    });
    this.cards.set(index, card);
    return card;
  }

  private accessButton(label: string, location: Location, thread: Accessor | undefined, note: string | null, role: string): HTMLElement {
    const where = locationLabel(location);
    const who = thread ? threadLabel(thread) : null;
    return h(
      'button',
      {
        type: 'button',
        class: 'access',
        'data-access': role,
        title: `Reveal ${location.file}:${location.line}:${location.column}`,
        'aria-label': `${label}: ${where}${who ? `, ${who.replace(/ · /g, ', ')}` : ''}${note ? `. ${note}` : ''}. Reveal in editor`,
        onClick: () => this.ctx.reveal(locationTarget(location)),
      },
      h('span', { class: 'access-label' }, label),
      h('span', { class: 'access-where' }, where),
      who ? h('span', { class: 'access-thread' }, who) : null,
      note ? h('span', { class: 'access-note' }, richText(note)) : null,
    );
  }
}

/** The metadata entry as it was when the race was found: then and now, side by side. */
function snapshot(m: MetadataSnapshot): HTMLElement {
  const item = (term: string, value: string, now?: string, wide = false) =>
    h('div', { class: wide ? 'kv wide' : 'kv' }, h('dt', null, term), h('dd', null, value, now !== undefined && now !== value ? h('span', { class: 'muted' }, ` → now ${now}`) : null));
  return h(
    'details',
    { class: 'snapshot' },
    h('summary', null, 'Metadata when the race was found'),
    h(
      'dl',
      null,
      item('Recorded access', `${m.atomic ?? (m.write ? 'write' : 'read')} by ${threadLabel(m.accessor)}`, undefined, true),
      item('Barrier ID', String(m.barrierId), String(m.barrierIdNow)),
      item('Block fence ID', String(m.blockFenceId), String(m.fenceFileNow.blockFenceId)),
      item('Device fence ID', String(m.deviceFenceId), String(m.fenceFileNow.deviceFenceId)),
      item('Strong', m.strong ? 'yes' : 'no'),
      item('Locks held', m.locks.length ? m.locks.join(', ') : 'none'),
    ),
  );
}
