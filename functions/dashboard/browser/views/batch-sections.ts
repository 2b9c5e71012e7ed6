// Sections of the CI batch page: the baseline line, the interval panel and the comparison with the baseline batch.
import { h, type Child } from '../dom';
import { deltaPct, num, safeUrl, shortCommit } from '../format';
import { intervalBar } from '../interval';
import type { CiComparison, CiChange, CiBatchView, CiMetadata } from '../types';
import { badge, batchLink, card, table, row, traceLabel } from '../widgets';

/** The branch or the batch the batch asked to be compared with, or null. */
const askedBranch = (b: CiBatchView) => (b.baseline && 'branch' in b.baseline ? b.baseline.branch : null);
const askedBatch = (b: CiBatchView) => (b.baseline && 'batch_id' in b.baseline ? b.baseline.batch_id : null);

/** The baseline the batch was compared with: a link to it, a "no baseline found" note, or nothing when none was asked for. */
export function baselineValue(b: CiBatchView): Child {
  const asked = b.baseline || null;
  const branch = b.comparison?.baseline_branch || askedBranch(b) || null;
  if (b.baseline_batch_id) {
    return [
      h('span', { class: 'mono', id: 'baseline-link' }, batchLink(b.baseline_batch_id)),
      branch ? [' (latest done batch of branch ', h('span', { class: 'mono' }, branch), ')'] : null,
    ];
  }
  if (b.baseline_missing) return h('span', { id: 'baseline-missing' }, 'no baseline found');
  return asked ? 'pending' : null;
}

/** A warning when a baseline was asked for and none was found: nothing was compared, which is not a failure by itself. */
export function baselineMissingAlert(b: CiBatchView): Child {
  if (!b.baseline_missing) return null;
  const branch = askedBranch(b);
  const batch = askedBatch(b);
  return h(
    'div',
    { class: 'alert alert-warn', role: 'status' },
    h('strong', null, 'No baseline found: nothing was compared.'),
    branch ? ['No done batch of this campaign on branch ', h('span', { class: 'mono' }, branch), ' existed when this batch was submitted.'] : null,
    batch ? ['The baseline batch ', h('span', { class: 'mono' }, batch), ' was not usable.'] : null,
  );
}

/** Commit, branch and pipeline of the batch as label/value pairs (the pipeline a link only when it is http(s)). */
export function metadataPairs(md: CiMetadata | null | undefined): [string, Child][] {
  const m = md || {};
  const pipeline = safeUrl(m.pipeline_url);
  return [
    ['Branch', m.branch ? h('span', { class: 'mono' }, m.branch) : null],
    ['Commit', m.commit ? h('span', { class: 'mono', title: m.commit }, shortCommit(m.commit)) : null],
    ['Pipeline', m.pipeline_url ? (pipeline ? h('a', { href: pipeline, rel: 'noopener noreferrer' }, m.pipeline_url) : m.pipeline_url) : null],
  ];
}

/** The panel with the pass rate's interval bar, once the batch is done and has one. */
export function intervalPanel(b: CiBatchView): Child {
  const iv = b.pass_rate_interval;
  if (!iv || typeof iv.low !== 'number' || typeof iv.high !== 'number') return null;
  return h('div', { class: 'panel' }, intervalBar(iv, b.pass_rate, b.thresholds?.min_pass_rate_lower_bound));
}

function cellName(c: CiChange): Child {
  return c.mutation_id ? h('span', { class: 'mono' }, c.mutation_id) : h('span', { class: 'muted' }, 'baseline');
}

function changeRows(kind: string, changes: readonly CiChange[] | undefined): HTMLTableRowElement[] {
  return (changes || []).map((c) =>
    row([
      badge(kind, kind === 'fixed' ? 'ok' : kind === 'new unsafe' ? 'warn' : 'bad'),
      traceLabel(c.trace_id, c.trace_name),
      cellName(c),
      kind === 'new unsafe' ? `unsafe ${c.unsafe_before ?? '-'}` : (c.before ?? '-'),
      kind === 'new unsafe' ? `unsafe ${c.unsafe_after ?? '-'}` : (c.after ?? '-'),
    ]),
  );
}

/** Cells of mutations one campaign version only has: new (no baseline repeat) or dropped (no repeat now). */
function oneSideRows(kind: 'new' | 'dropped', cells: CiComparison['new_cells'] | undefined): HTMLTableRowElement[] {
  return (cells || []).map((c) =>
    row([
      badge(kind),
      traceLabel(c.trace_id, c.trace_name),
      c.mutation_id ? h('span', { class: 'mono' }, c.mutation_id) : h('span', { class: 'muted' }, 'baseline'),
      kind === 'new' ? 'not run' : 'ran',
      kind === 'new' ? 'ran' : 'not run',
    ]),
  );
}

/** Says when the baseline ran another campaign version than this batch; null when both ran the same. */
function versionsNote(cmp: CiComparison): Child {
  const before = cmp.baseline_campaign_version;
  if (typeof before !== 'number' || before === cmp.campaign_version) return null;
  return h(
    'p',
    { class: 'versions-note' },
    `The baseline ran campaign version ${before}, this batch version ${cmp.campaign_version}: `,
    'cells of mutations only one version has are new or dropped, never regressions.',
  );
}

function more(label: string, shown: number, total: number | undefined): Child {
  return typeof total === 'number' && total > shown ? h('li', null, `${label}: the first ${shown} of ${total} are listed.`) : null;
}

/** "Changes since the baseline": counts, the pass-rate delta and the changed cells (the first 50 of each kind). */
export function comparisonSection(cmp: CiComparison | null | undefined): Child {
  if (!cmp) return null;
  const rows = [
    ...changeRows('regressed', cmp.regressed),
    ...changeRows('fixed', cmp.fixed),
    ...changeRows('new unsafe', cmp.new_unsafe),
    ...oneSideRows('new', cmp.new_cells),
    ...oneSideRows('dropped', cmp.dropped_cells),
  ];
  const newCells = cmp.new_cells_count || 0;
  const droppedCells = cmp.dropped_cells_count || 0;
  const truncated = [
    more('Regressed cells', (cmp.regressed || []).length, cmp.regressed_count),
    more('Fixed cells', (cmp.fixed || []).length, cmp.fixed_count),
    more('New unsafe cells', (cmp.new_unsafe || []).length, cmp.new_unsafe_count),
    more('New cells', (cmp.new_cells || []).length, cmp.new_cells_count),
    more('Dropped cells', (cmp.dropped_cells || []).length, cmp.dropped_cells_count),
  ].filter(Boolean);
  const delta = cmp.pass_rate_delta;
  return [
    h(
      'h2',
      { id: 'comparison' },
      'Changes since the baseline',
      cmp.baseline_branch ? [' (', h('span', { class: 'mono' }, cmp.baseline_branch), ')'] : null,
    ),
    versionsNote(cmp),
    h(
      'ul',
      { class: 'cards', 'aria-label': 'Comparison' },
      card('Pass rate change', deltaPct(delta), typeof delta === 'number' && delta < 0 ? 'card-bad' : undefined),
      card('Regressed cells', num(cmp.regressed_count), (cmp.regressed_count || 0) > 0 ? 'card-bad' : undefined),
      card('Fixed cells', num(cmp.fixed_count)),
      card('New unsafe cells', num(cmp.new_unsafe_count), (cmp.new_unsafe_count || 0) > 0 ? 'card-bad' : undefined),
      card('New scenarios', num(cmp.new_count)),
      card('Dropped scenarios', num(cmp.dropped_count)),
      newCells || droppedCells ? card('New cells', num(newCells)) : null,
      newCells || droppedCells ? card('Dropped cells', num(droppedCells)) : null,
    ),
    table(
      'Changed cells (passed/total repeats, baseline then this batch)',
      ['Change', 'Scenario', 'Mutation', 'Baseline', 'This batch'],
      rows,
      'No cell changed.',
    ),
    truncated.length ? h('ul', { class: 'muted' }, truncated) : null,
  ];
}
