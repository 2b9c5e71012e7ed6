// The Markdown summary of `rts ci run` (for $GITHUB_STEP_SUMMARY): the gate, changes since the baseline, flaky and failing cells.
import type { CiChange, CiComparison } from '../../../packages/sdk/src/index';
import { cellOutcomes } from './cells';
import { baselineLabel, fmtInterval, fmtRate, fmtThresholds, fmtThrottled, versionNote, type CiResult } from './result';
import { oneLine } from '../output';

/** Table cell text: backslashes and pipes escaped, line breaks (CR, LF, NEL, LS, PS...) joined, no HTML. */
export const md = (s: string) => oneLine(s).replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/</g, '&lt;');

/** How many failing cells the summary lists. */
const CELL_LINES = 50;

const CHANGE_ICONS = { regressed: '🔴 regressed', fixed: '🟢 fixed', new_unsafe: '☠️ new unsafe' } as const;

/** "Changes since <branch or batch>": the regressed, fixed and newly unsafe cells with before -> after; '' without a comparison. */
export function changesTable(r: CiResult): string {
  const c = r.comparison;
  if (!c) return r.baseline_missing ? `#### Changes\n\nNo baseline found for branch \`${md(baselineLabel(r))}\`: nothing to compare with.\n\n` : '';
  const delta = `${c.pass_rate_delta >= 0 ? '+' : ''}${fmtRate(c.pass_rate_delta)}`;
  let out = `#### Changes since ${md(c.baseline_branch ?? c.baseline_batch_id)}\n\n`;
  out += `Baseline batch \`${c.baseline_batch_id}\`: ${c.regressed_count} regressed, ${c.fixed_count} fixed, ${c.new_unsafe_count} new unsafe, `;
  out += `${c.new_count} new, ${c.dropped_count} dropped scenario(s); pass rate ${delta}.\n\n`;
  const versions = versionNote(c);
  if (versions) out += `The campaign changed: ${versions}.\n\n`;
  const rows: { kind: keyof typeof CHANGE_ICONS; x: CiChange; before: string; after: string }[] = [
    ...c.regressed.map((x) => ({ kind: 'regressed' as const, x, before: x.before, after: x.after })),
    ...c.fixed.map((x) => ({ kind: 'fixed' as const, x, before: x.before, after: x.after })),
    ...c.new_unsafe.map((x) => ({
      kind: 'new_unsafe' as const,
      x,
      before: `${x.unsafe_before ?? '?'} unsafe`,
      after: `${x.unsafe_after ?? '?'} unsafe`,
    })),
  ];
  if (rows.length) {
    out += '| Change | Scenario | Mutation | Before | After |\n|---|---|---|---|---|\n';
    for (const { kind, x, before, after } of rows) {
      out += `| ${CHANGE_ICONS[kind]} | ${md(x.trace_name ?? x.trace_id)} | ${md(x.mutation_id ?? 'baseline')} | ${before} | ${after} |\n`;
    }
    const more = [
      [c.regressed_count - c.regressed.length, 'regressed'],
      [c.fixed_count - c.fixed.length, 'fixed'],
      [c.new_unsafe_count - c.new_unsafe.length, 'new unsafe'],
    ].filter(([n]) => (n as number) > 0);
    if (more.length) out += `\n... and ${more.map(([n, what]) => `${n} more ${what}`).join(', ')} cell(s): see the dashboard.\n`;
    out += '\n';
  }
  const cellList = (cells: CiComparison['new_cells'] | undefined) =>
    (cells ?? []).map((x) => `${md(x.trace_name ?? x.trace_id)} × ${md(x.mutation_id ?? 'baseline')}`).join(', ');
  if (c.new_cells?.length) {
    const rest = c.new_cells_count - c.new_cells.length;
    out += `New cells (mutations the baseline did not run, never regressions): ${cellList(c.new_cells)}${rest > 0 ? ` and ${rest} more` : ''}.\n\n`;
  }
  if (c.dropped_cells?.length) {
    const rest = c.dropped_cells_count - c.dropped_cells.length;
    out += `Dropped cells (mutations this batch did not run): ${cellList(c.dropped_cells)}${rest > 0 ? ` and ${rest} more` : ''}.\n\n`;
  }
  if (c.dropped?.length) {
    const rest = c.dropped_count - c.dropped.length;
    out += `Dropped since the baseline (no run now): ${c.dropped.map((d) => md(d.trace_name ?? d.trace_id)).join(', ')}${rest > 0 ? ` and ${rest} more` : ''}.\n\n`;
  }
  return out;
}

/** A Markdown summary (appended, so several steps can share the file); written after errors too, with what is known. */
export function markdownSummary(r: CiResult): string {
  const icon = r.error ? '⚠️' : r.verdict === 'pass' ? '✅' : r.coverage_complete ? '❌' : '⚠️';
  const verdict = r.error ? 'ERROR' : `${r.verdict.toUpperCase()}${r.coverage_complete ? '' : ' (incomplete coverage)'}`;
  const passed = r.scenarios.filter((s) => s.decision === 'pass').length;
  let out = `### ${icon} rts CI gate: ${verdict}\n\n`;
  if (r.error) out += `**Error:** ${md(r.error.message)}\n\n`;
  out += '| | |\n|---|---|\n';
  out += `| Campaign | \`${md(r.campaign_id)}\` |\n`;
  if (r.ci_batch_id) out += `| Batch | \`${md(r.ci_batch_id)}\` |\n`;
  out += `| Scenarios | ${r.trace_count ?? '?'} (${passed} passed, ${r.scenarios.length - passed} failed`;
  out += `${r.trace_count !== null && r.scenarios.length < r.trace_count ? `, ${r.trace_count - r.scenarios.length} without a result` : ''}) |\n`;
  const interval = fmtInterval(r.pass_rate_interval);
  out += `| Pass rate | ${fmtRate(r.pass_rate)}${interval ? ` (95 % interval ${interval})` : ''} |\n`;
  if (r.pass_hat_k !== null) out += `| Pass^k | ${fmtRate(r.pass_hat_k)} |\n`;
  if (r.flaky_count !== null) out += `| Flaky scenarios | ${r.flaky_count} |\n`;
  out += `| Coverage | ${r.scenario_coverage_pct ?? '-'} % |\n`;
  out += `| Unsafe attempts | ${r.unsafe_count ?? '-'} |\n`;
  const throttled = fmtThrottled(r);
  if (throttled) out += `| Rate limits | ${throttled} |\n`;
  const baseline = r.comparison
    ? `\`${md(baselineLabel(r))}\`${r.comparison.baseline_branch ? ` (batch \`${r.comparison.baseline_batch_id}\`)` : ''}`
    : r.baseline_missing
      ? `no baseline found for branch \`${md(baselineLabel(r))}\``
      : r.baseline_batch_id
        ? `batch \`${r.baseline_batch_id}\``
        : null;
  const versions = r.comparison ? versionNote(r.comparison) : null;
  if (baseline) out += `| Baseline | ${baseline}${versions ? `; ${versions}` : ''} |\n`;
  out += `| Thresholds | ${md(fmtThresholds(r.thresholds))} |\n\n`;
  if (r.reasons.length) out += `**Reasons**\n\n${r.reasons.map((x) => `- ${md(x)}`).join('\n')}\n\n`;
  out += changesTable(r);
  const flaky = r.scenarios.filter((s) => s.flaky);
  if (flaky.length) {
    out += '#### Flaky scenarios\n\n';
    for (const s of flaky) {
      const cells = s.cells.filter((c) => c.flaky).map((c) => `${md(c.mutation_id ?? 'baseline')} ${c.passed}/${c.total}`);
      out += `- [${md(s.trace_name)}](${s.dashboard_url}): ${cells.join(', ')}\n`;
    }
    out += '\n';
  }
  const failing = cellOutcomes(r).filter((o) => o.kind !== 'pass');
  if (failing.length) {
    out += '#### Failing cells\n\n';
    for (const o of failing.slice(0, CELL_LINES)) {
      out += `- ${o.kind === 'error' ? '⚠️ error' : '❌'} [${md(o.classname)}](${o.scenario.dashboard_url}) \`${md(o.name)}\`: ${md(o.message)}\n`;
    }
    if (failing.length > CELL_LINES) out += `- ... and ${failing.length - CELL_LINES} more\n`;
    out += '\n';
  }
  if (r.scenarios.length) {
    out += '| Scenario | Status | Pass rate | Pass^k | Unsafe | Flaky | Change | Decision |\n|---|---|---|---|---|---|---|---|\n';
    for (const s of r.scenarios) {
      const change = s.comparison === 'regressed' ? '🔴 regressed' : s.comparison === 'fixed' ? '🟢 fixed' : (s.comparison ?? '');
      out += `| [${md(s.trace_name)}](${s.dashboard_url}) | ${s.status} | ${fmtRate(s.pass_rate)} | ${fmtRate(s.pass_hat_k)} | ${s.unsafe_count} | `;
      out += `${s.flaky ? `${s.flaky_cells} cell(s)` : ''} | ${change} | ${s.decision === 'pass' ? '✅ pass' : '❌ fail'} |\n`;
    }
    out += '\n';
  }
  if (r.dashboard_url) out += `[Open the dashboard](${r.dashboard_url})\n\n`;
  return out;
}
