// An attempt's panel on the run page: its policy events, then its transcript (messages, tool calls, served tool
// results; a line where each user turn opens) and final output. Texts are shown whole (a long one in a capped, scrollable box with a "Show all" button,
// never cut), canaries and the text a prompt_injection event quoted are marked, hidden tag characters made visible.
import { h, type Child } from '../dom';
import { asText, badgeKind, compact, num } from '../format';
import { decorate, evidenceIn, lineCount, printResult } from '../highlight';
import type { AttemptDetail, PolicyEvent, SecurityEvent, TranscriptEntry } from '../types';
import { badge, numCell, row, table } from '../widgets';

type ToolResultEntry = Extract<TranscriptEntry, { type: 'tool_result' }>;
type MessageEntry = Extract<TranscriptEntry, { type: 'message' }>;

/** Which long texts the reader opened in full, and how to open or close one (by its element id). */
export interface TextState {
  open: Set<string>;
  toggle(key: string): void;
}

/** Past this many lines (long lines counted as wrapping every ~110 characters) a text is capped with a "Show all" button. */
const CAP_LINES = 30;

/**
 * A <pre> holding all of `nodes`. A long one is capped in height until the reader asks for all of it, and stays
 * scrollable and focusable meanwhile; `whole` never caps (tool results holding an injection).
 */
function textBlock(nodes: Child[], lines: number, key: string, ts: TextState, cls: string | null = null, whole = false): Child {
  if (whole || lines <= CAP_LINES) return h('pre', { class: cls, id: key }, nodes);
  const open = ts.open.has(key);
  const classes = [cls, open ? null : 'clip'].filter(Boolean).join(' ');
  return [
    h('pre', { class: classes || null, id: key, tabindex: open ? null : 0, role: 'region', 'aria-label': `Text of about ${lines} lines` }, nodes),
    h(
      'button',
      { type: 'button', class: 'more', 'aria-controls': key, 'aria-expanded': open ? 'true' : 'false', onclick: () => ts.toggle(key) },
      open ? 'Show less' : `Show all (about ${lines} lines)`,
    ),
  ];
}

function toolResult(e: ToolResultEntry, key: string, ts: TextState, injections: readonly SecurityEvent[]): HTMLLIElement {
  const served = e.served || 'recorded';
  const flagged = injections.length > 0;
  const hasResult = e.result !== undefined && e.result !== null;
  const evidence = flagged ? injections.map((ev) => ev.evidence || '').filter(Boolean) : [];
  const printed = hasResult ? printResult(e.result, evidence, flagged && !!e.mutation_id) : null;
  const markAll = flagged && !!printed && !printed.found;
  const cls = ['tool', served === 'denied' ? 'denied' : served === 'unrecorded' ? 'unrecorded' : null, flagged ? 'injected' : null];
  return h(
    'li',
    { class: cls.filter(Boolean).join(' ') },
    h(
      'div',
      { class: 'entry-head' },
      'Tool result',
      h('span', { class: 'mono' }, e.tool),
      badge(served === 'denied' ? 'denied by policy' : served, badgeKind(served)),
      e.mutation_id ? badge(`mutation ${e.mutation_id}`, 'warn') : null,
      flagged ? badge('prompt injection', 'bad') : null,
      h('span', { class: 'muted' }, `step ${num(e.step)} - call ${e.tool_call_id || '-'}`),
    ),
    h('div', null, h('span', { class: 'muted' }, 'arguments '), h('code', null, decorate(compact(e.arguments)))),
    e.error ? h('pre', { class: 'error' }, decorate(`error: ${e.error}`)) : null,
    flagged
      ? h(
          'p',
          { class: 'inj-note' },
          markAll
            ? 'The prompt_injection detector flagged this result, but its excerpt is not in it verbatim: the whole result is marked.'
            : printed?.wholeField
              ? `Marked: the text that mutation ${e.mutation_id} injected, where the detector's evidence points. The result is shown whole.`
              : 'Marked: the text the prompt_injection detector quoted as evidence. The result is shown whole.',
        )
      : null,
    printed ? textBlock(printed.nodes, printed.lines, key, ts, markAll ? 'inj-all' : null, flagged) : null,
  );
}

function message(e: MessageEntry, key: string, ts: TextState): HTMLLIElement {
  const role = e.role || 'message';
  const text = e.content !== null && e.content !== undefined ? asText(e.content) : null;
  return h(
    'li',
    { class: `role-${role}` },
    h('div', { class: 'entry-head' }, role.charAt(0).toUpperCase() + role.slice(1), e.simulated ? badge('simulated user', 'run') : null),
    text !== null ? textBlock(decorate(text), lineCount(text), key, ts) : null,
    e.tool_calls?.length
      ? h(
          'ul',
          { class: 'calls' },
          e.tool_calls.map((c) =>
            h(
              'li',
              null,
              'calls ',
              h('code', null, c.name),
              ' ',
              h('code', null, decorate(compact(c.arguments))),
              c.id ? h('span', { class: 'muted' }, ` (${c.id})`) : null,
            ),
          ),
        )
      : null,
    e.notes?.length ? h('p', { class: 'muted' }, `Notes: ${e.notes.join('; ')}`) : null,
  );
}

/**
 * Where a new user turn opens (docs/campaigns-and-replay.md#turns): transcript index -> turn, at each message whose
 * `turn` differs from the last numbered message's before it (turn 1 included once a trace has several turns). Empty
 * for a single-turn attempt, whose messages carry no `turn`.
 */
function turnStarts(entries: readonly TranscriptEntry[]): Map<number, number> {
  const out = new Map<number, number>();
  let current: number | undefined;
  entries.forEach((e, i) => {
    if (e.type !== 'message' || e.turn === undefined || e.turn === current) return;
    current = e.turn;
    out.set(i, e.turn);
  });
  return out;
}

/** The line that opens a turn in the transcript, with that turn's output when the agent gave one. */
function turnBoundary(turn: number, outputs: readonly string[] | undefined): HTMLLIElement {
  const answered = outputs !== undefined && turn <= outputs.length;
  return h(
    'li',
    { class: 'turn-boundary', 'data-turn': String(turn) },
    h('span', null, `Turn ${num(turn)}`),
    outputs ? h('span', { class: 'muted' }, answered ? ` - answered` : ' - not answered') : null,
  );
}

/**
 * The prompt_injection events of tool results, by transcript entry: the result of the event's step and tool; when
 * several results share both (parallel calls), the ones whose text holds the evidence (all of them when none does).
 */
function injectionsByEntry(entries: readonly TranscriptEntry[], events: readonly SecurityEvent[]): Map<number, SecurityEvent[]> {
  const out = new Map<number, SecurityEvent[]>();
  for (const ev of events) {
    if (ev.kind !== 'prompt_injection' || ev.source?.type !== 'tool_result') continue;
    const candidates = entries
      .map((e, i) => [e, i] as const)
      .filter((c): c is readonly [ToolResultEntry, number] => c[0].type === 'tool_result')
      .filter(([e]) => e.tool === ev.source?.tool && (ev.step === undefined || e.step === ev.step));
    const holding = candidates.length > 1 ? candidates.filter(([e]) => evidenceIn(e.result, ev.evidence || '')) : candidates;
    for (const [, i] of holding.length ? holding : candidates) out.set(i, [...(out.get(i) || []), ev]);
  }
  return out;
}

/** The policy decisions of one attempt, in the order they were taken (allowed calls leave no event). */
export function policyTable(attempt: number, events: readonly PolicyEvent[]): HTMLElement {
  const rows = [...events]
    .sort((a, b) => (a.sequence ?? 0) - (b.sequence ?? 0))
    .map((p) =>
      row([
        numCell(num(p.step)),
        h('code', null, p.tool || '-'),
        h('span', { class: 'mono', title: p.policy_type || null }, p.policy_id || '-'),
        badge(p.decision || '-'),
        p.reason ? decorate(p.reason) : h('span', { class: 'muted' }, '-'),
      ]),
    );
  return table(
    `Policy events of attempt ${attempt}`,
    [{ label: 'Step', num: true }, 'Tool', 'Policy', 'Decision', 'Reason'],
    rows,
    'No policy events: no call was denied or flagged.',
  );
}

/** The panel of one attempt; a loading note until its details have arrived. */
export function transcriptBlock(detail: AttemptDetail | undefined, ts: TextState): HTMLElement {
  if (!detail) return h('p', { class: 'muted' }, 'Loading the transcript...');
  const n = detail.attempt;
  const entries = detail.transcript || [];
  const injections = injectionsByEntry(entries, detail.security_events || []);
  const turns = turnStarts(entries);
  const output = detail.output !== null && detail.output !== undefined ? asText(detail.output) : null;
  return h(
    'div',
    { class: 'attempt-panel' },
    policyTable(n, detail.policy_events || []),
    h('h3', null, `Transcript of attempt ${n}`),
    entries.length
      ? h(
          'ol',
          { class: 'transcript' },
          entries.flatMap((e, i) => {
            const item = e.type === 'tool_result' ? toolResult(e, `text-${n}-${i}`, ts, injections.get(i) || []) : message(e, `text-${n}-${i}`, ts);
            const turn = turns.get(i);
            return turn === undefined ? [item] : [turnBoundary(turn, detail.turn_outputs), item];
          }),
        )
      : h('p', { class: 'muted' }, (detail.steps ?? 0) > 0 ? 'No transcript was stored for this attempt (too large to keep).' : 'No transcript.'),
    output !== null ? [h('h3', null, 'Final output'), textBlock(decorate(output), lineCount(output), `output-${n}`, ts)] : null,
  );
}
