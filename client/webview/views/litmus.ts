// The Litmus tab: the histogram of a litmus run's outcomes as a list of bars (SVG, hidden
// from screen readers: each row says its count and share in words), with an allowed or
// forbidden badge, the outcomes the file declares marked, and below it the witness of the
// selected outcome, step by step, each step with a button that reveals its line.
import { h, svg } from '../dom';
import { basename, rangeLabel, rangeTarget } from '../format';
import type { RevealTarget } from '../messages';
import type { LitmusMessage } from '../model';
import type { LitmusOutcome, WitnessStep } from '../../../server/wire';

/** Steps of a witness shown at most (a litmus witness is a few dozen). */
const MAX_STEPS = 400;

export interface LitmusContext {
  reveal: (target: RevealTarget) => void;
  /** An outcome was clicked: show its witness (null: none). */
  select: (outcome: string | null) => void;
}

/** Most frequent first; outcomes never reached (declared ones) last, in the report's order. */
export function histogramOrder(outcomes: LitmusOutcome[]): LitmusOutcome[] {
  return outcomes
    .map((o, i) => [o, i] as const)
    .sort(([a, i], [b, j]) => b.count - a.count || i - j)
    .map(([o]) => o);
}

function share(count: number, runs: number): string {
  if (runs <= 0) return '0%';
  const p = (100 * count) / runs;
  return `${p === 0 || p >= 10 ? p.toFixed(0) : p.toFixed(1)}%`;
}

/** The outcome on one line (a program may print several). */
function oneLine(outcome: string): string {
  return outcome.replace(/\r?\n/g, ' ⏎ ') || '(no output)';
}

function verdictText(o: LitmusOutcome, model: string): string {
  return o.allowed ? `allowed under ${model}` : `forbidden under ${model}`;
}

export class LitmusView {
  readonly element: HTMLElement;
  private readonly rows = new Map<string, HTMLButtonElement>();
  private readonly witnessHost = h('section', { class: 'litmus-witness', id: 'litmus-witness', 'aria-live': 'polite', 'aria-labelledby': 'litmus-witness-title' });
  private selected: string | null = null;

  constructor(
    private readonly message: LitmusMessage,
    selected: string | null,
    private readonly ctx: LitmusContext,
  ) {
    const r = message.report;
    const how = r.exhaustive ? (r.complete ? 'every execution explored' : 'exploration stopped at its execution limit: incomplete') : 'random executions';
    const summary = h(
      'p',
      { class: 'summary litmus-summary' },
      `${r.runs} ${r.exhaustive ? (r.runs === 1 ? 'execution' : 'executions') : r.runs === 1 ? 'run' : 'runs'} of `,
      h('code', null, basename(message.file)),
      ' under ',
      h('strong', { class: 'model' }, r.model),
      ` · ${how} · ${r.outcomes.filter((o) => o.count > 0).length} distinct ${r.outcomes.filter((o) => o.count > 0).length === 1 ? 'outcome' : 'outcomes'} · ${Math.round(r.elapsedMs)} ms`,
    );
    const errors = r.errors.length
      ? h(
          'ul',
          { class: 'litmus-errors', role: 'alert' },
          r.errors.map((e) =>
            h(
              'li',
              null,
              h('span', { class: 'error-text' }, e.message),
              e.range ? [' ', h('button', { type: 'button', class: 'link', onClick: () => this.ctx.reveal(rangeTarget(e.range!)) }, rangeLabel(e.range))] : null,
            ),
          ),
        )
      : null;
    const ordered = histogramOrder(r.outcomes);
    const max = Math.max(1, ...ordered.map((o) => o.count));
    const list = h('ol', { class: 'histogram', 'aria-label': `Outcomes under ${r.model}` });
    // Through CSSOM, not a style attribute (the page's CSP allows no inline style).
    list.style.setProperty('--litmus-outcome-width', `${Math.min(48, Math.max(8, ...ordered.map((o) => oneLine(o.outcome).length)) + 1)}ch`);
    for (const o of ordered) list.append(this.row(o, max));
    this.element = h(
      'div',
      { class: 'litmus' },
      summary,
      errors,
      ordered.length ? list : h('p', { class: 'muted' }, r.errors.length ? 'The program could not run, so there are no outcomes.' : 'No execution reached the end of the program.'),
      ordered.length ? this.witnessHost : null,
    );
    const initial = selected !== null && this.rows.has(selected) ? selected : null;
    this.show(initial);
  }

  private row(o: LitmusOutcome, max: number): HTMLElement {
    const r = this.message.report;
    const text = oneLine(o.outcome);
    const percent = (100 * o.count) / max;
    const label = `${text}: ${o.count} of ${r.runs} (${share(o.count, r.runs)}), ${verdictText(o, r.model)}${o.declared ? ', declared in the file' : ''}. Show its witness`;
    const button = h(
      'button',
      { type: 'button', class: 'outcome-row', 'aria-pressed': 'false', 'aria-label': label, 'aria-controls': 'litmus-witness', 'data-outcome': o.outcome, onClick: () => this.choose(o.outcome) },
      h('code', { class: 'outcome-text', title: o.outcome }, text),
      svg(
        'svg',
        { class: 'bar', viewBox: '0 0 100 10', preserveAspectRatio: 'none', 'aria-hidden': 'true', focusable: 'false' },
        svg('rect', { class: 'bar-track', x: 0, y: 0, width: 100, height: 10 }),
        o.count > 0 ? svg('rect', { class: `bar-fill ${o.allowed ? 'allowed' : 'forbidden'}`, x: 0, y: 0, width: Math.max(percent, 0.5).toFixed(2), height: 10 }) : null,
      ),
      h('span', { class: 'outcome-count' }, String(o.count)),
      h('span', { class: 'outcome-share muted' }, share(o.count, r.runs)),
      h('span', { class: `badge verdict ${o.allowed ? 'allowed' : 'forbidden'}`, title: verdictText(o, r.model) }, o.allowed ? 'allowed' : 'forbidden'),
      o.declared ? h('span', { class: 'badge declared', title: 'Named by an // outcome: line in the file' }, 'declared') : null,
    );
    this.rows.set(o.outcome, button);
    return h('li', { class: `outcome${o.declared ? ' declared' : ''}${o.allowed ? '' : ' forbidden'}` }, button);
  }

  /** Clicking an outcome selects it; clicking the selected one again keeps it (and its witness). */
  private choose(outcome: string): void {
    if (this.selected === outcome) return;
    this.show(outcome);
    this.ctx.select(outcome);
  }

  /** Select an outcome (or none) and show its witness. */
  show(outcome: string | null): void {
    if (this.selected !== null) this.rows.get(this.selected)?.setAttribute('aria-pressed', 'false');
    this.selected = outcome !== null && this.rows.has(outcome) ? outcome : null;
    if (this.selected !== null) this.rows.get(this.selected)!.setAttribute('aria-pressed', 'true');
    const o = this.selected === null ? undefined : this.message.report.outcomes.find((x) => x.outcome === this.selected);
    if (!o) {
      this.witnessHost.replaceChildren(h('h2', { class: 'section-title', id: 'litmus-witness-title' }, 'Witness'), h('p', { class: 'muted' }, 'Select an outcome to see one execution that ends in it.'));
      return;
    }
    const title = h('h2', { class: 'section-title', id: 'litmus-witness-title' }, 'Witness of ', h('code', null, oneLine(o.outcome)));
    if (!o.witness.length) {
      const why = o.count === 0 ? `No execution ended in this outcome: it is ${verdictText(o, this.message.report.model)}.` : 'The run kept no steps for this outcome.';
      this.witnessHost.replaceChildren(title, h('p', { class: 'muted no-witness' }, why));
      return;
    }
    const steps = h('ol', { class: 'witness-steps', 'aria-label': `Steps of an execution ending in ${oneLine(o.outcome)}` });
    for (const s of o.witness.slice(0, MAX_STEPS)) steps.append(this.step(s));
    this.witnessHost.replaceChildren(title, steps);
    if (o.witness.length > MAX_STEPS) this.witnessHost.append(h('p', { class: 'muted' }, `The first ${MAX_STEPS} of ${o.witness.length} steps.`));
  }

  private step(s: WitnessStep): HTMLElement {
    const memory = s.actor === 'memory';
    return h(
      'li',
      { class: `witness-step${memory ? ' memory' : ''}` },
      h('span', { class: 'step-actor' }, s.actor),
      h('code', { class: 'step-action' }, s.action),
      s.range
        ? h('button', { type: 'button', class: 'link step-reveal', title: `Reveal ${s.range.file}:${s.range.start.line + 1}:${s.range.start.character + 1}`, 'aria-label': `${s.action}: reveal ${rangeLabel(s.range)} in the editor`, onClick: () => this.ctx.reveal(rangeTarget(s.range!)) }, rangeLabel(s.range))
        : null,
    );
  }
}
