// The reports of `rts ci run`: the verdict table, the JUnit XML file, the Markdown summary, and the JSON result.
import { writeFileSync } from 'node:fs';

/** One scenario run as reported: GET /v1/ci/runs/{id} plus the trace's name. */
export interface ScenarioResult {
  run_id: string;
  trace_id: string;
  trace_name: string;
  status: string;
  decision: string;
  pass_rate: number;
  attempt_count: number;
  passed_count: number;
  failed_count: number;
  unsafe_count: number;
  reasons: string[];
  dashboard_url: string;
  duration_s: number | null;
}

/** The gate's outcome: what --json prints and what the reports are built from. */
export interface CiResult {
  verdict: 'pass' | 'fail';
  exit_code: 0 | 1;
  /** false when some scenario run produced no verdict (coverage < 100): the verdict is not trusted. */
  coverage_complete: boolean;
  kind: 'batch' | 'run';
  ci_batch_id: string | null;
  run_id: string;
  campaign_id: string;
  decision: string;
  pass_rate: number;
  scenario_coverage_pct: number;
  trace_count: number;
  unsafe_count: number;
  thresholds: Record<string, number>;
  reasons: string[];
  dashboard_url: string;
  scenarios: ScenarioResult[];
}

/** Which reports to write: the files named by --junit and --summary, and --json instead of the table on stdout. */
export interface ReportOptions {
  junit?: string;
  summary?: string;
  json: boolean;
}

/** Where a report line goes (a process stream, or a test's buffer). */
interface Writer {
  write(s: string): unknown;
}

/** A pass rate with two decimals; `-` when it is not a finite number. */
export const fmtRate = (n: number) => (Number.isFinite(n) ? n.toFixed(2) : '-');

/**
 * Writes every report of a result: the JUnit file (overwritten), the Markdown summary (appended), a warning on stderr
 * when some scenario produced no verdict, then the JSON result or the verdict table on stdout.
 */
export function writeReports(r: CiResult, opts: ReportOptions, io: { stdout: Writer; stderr: Writer }): void {
  if (opts.junit) writeFileSync(opts.junit, junitXml(r));
  if (opts.summary) writeFileSync(opts.summary, markdownSummary(r), { flag: 'a' });
  if (!r.coverage_complete) {
    const missing = r.scenarios.filter((s) => s.status !== 'completed').length;
    io.stderr.write(
      `rts ci: incomplete coverage: ${r.scenario_coverage_pct}% of scenarios produced a verdict (${missing} run(s) failed without one); the verdict is not trusted\n`,
    );
  }
  if (opts.json) {
    io.stdout.write(`${JSON.stringify(r, null, 2)}\n`);
    return;
  }
  io.stdout.write(verdictTable(r));
}

/** The verdict table: one row per scenario run, then the verdict, the missed thresholds and the dashboard URL. */
export function verdictTable(r: CiResult): string {
  const rows = r.scenarios.map((s) => [clip(s.trace_name, 48), s.status, fmtRate(s.pass_rate), String(s.unsafe_count), s.decision]);
  const head = ['TRACE', 'STATUS', 'PASS RATE', 'UNSAFE', 'DECISION'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) =>
    `${cells
      .map((c, i) => c.padEnd(widths[i]))
      .join('  ')
      .trimEnd()}\n`;
  const passed = r.scenarios.filter((s) => s.decision === 'pass').length;
  let out = line(head) + rows.map(line).join('');
  out += `\nVerdict: ${r.verdict.toUpperCase()}${r.coverage_complete ? '' : ' (incomplete coverage)'}: ${passed}/${r.trace_count} scenario(s) passed, pass_rate ${fmtRate(r.pass_rate)}, coverage ${r.scenario_coverage_pct}%, unsafe ${r.unsafe_count}\n`;
  out += `Thresholds: min_pass_rate ${r.thresholds.min_pass_rate}, max_unsafe ${r.thresholds.max_unsafe}, max_failures ${r.thresholds.max_failures}\n`;
  if (r.reasons.length) out += `Reasons:\n${r.reasons.map((x) => `  - ${x}\n`).join('')}`;
  out += `Dashboard: ${r.dashboard_url}\n`;
  return out;
}

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 3)}...` : s);

/** XML 1.0 text or attribute value: markup escaped, characters XML cannot carry dropped. */
export function xmlEscape(s: string): string {
  return (
    s
      // eslint-disable-next-line no-control-regex -- the characters XML 1.0 allows are named by their code points
      .replace(/[^\x09\x0A\x0D\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      .replace(/'/g, '&apos;')
      .replace(/\n/g, '&#10;')
      .replace(/\r/g, '&#13;')
      .replace(/\t/g, '&#9;')
  );
}

/** JUnit XML: one testsuite, one testcase per scenario run (named after its trace), a failure per failing run. */
export function junitXml(r: CiResult): string {
  const failures = r.scenarios.filter((s) => s.decision !== 'pass').length;
  const total = r.scenarios.reduce((t, s) => t + (s.duration_s ?? 0), 0);
  const seen = new Map<string, number>();
  for (const s of r.scenarios) seen.set(s.trace_name, (seen.get(s.trace_name) ?? 0) + 1);
  const a = xmlEscape;
  const props: [string, string | null][] = [
    ['campaign_id', r.campaign_id],
    ['ci_batch_id', r.ci_batch_id],
    ['run_id', r.run_id],
    ['decision', r.decision],
    ['pass_rate', String(r.pass_rate)],
    ['scenario_coverage_pct', String(r.scenario_coverage_pct)],
    ['dashboard_url', r.dashboard_url],
  ];
  let xml = '<?xml version="1.0" encoding="UTF-8"?>\n';
  xml += `<testsuite name="${a(`rts ci ${r.campaign_id}`)}" tests="${r.scenarios.length}" failures="${failures}" errors="0" skipped="0" time="${total.toFixed(3)}">\n`;
  xml += '  <properties>\n';
  for (const [k, v] of props) if (v !== null && v !== undefined) xml += `    <property name="${k}" value="${a(v)}"/>\n`;
  xml += '  </properties>\n';
  for (const s of r.scenarios) {
    // Two traces may share a name; the id keeps every testcase distinct.
    const name = (seen.get(s.trace_name) ?? 0) > 1 ? `${s.trace_name} (${s.trace_id})` : s.trace_name;
    xml += `  <testcase name="${a(name)}" classname="${a(`rts.${r.campaign_id}`)}" time="${(s.duration_s ?? 0).toFixed(3)}">\n`;
    if (s.decision !== 'pass') {
      const reasons = s.reasons.length ? s.reasons : [`decision ${s.decision} (run ${s.status})`];
      xml += `    <failure message="${a(reasons.join('; '))}" type="${s.status === 'failed' ? 'run_failed' : 'threshold_missed'}">${a(reasons.join('\n'))}</failure>\n`;
    }
    xml += `    <system-out>${a(`run ${s.run_id} (trace ${s.trace_id}): ${s.status}, pass_rate ${fmtRate(s.pass_rate)}, attempts ${s.attempt_count}, unsafe ${s.unsafe_count}\n${s.dashboard_url}`)}</system-out>\n`;
    xml += '  </testcase>\n';
  }
  xml += '</testsuite>\n';
  return xml;
}

const md = (s: string) =>
  s
    .replace(/\\/g, '\\\\')
    .replace(/\|/g, '\\|')
    .replace(/[\r\n]+/g, ' ')
    .replace(/</g, '&lt;');

/** A Markdown summary for $GITHUB_STEP_SUMMARY (appended, so several steps can share the file). */
export function markdownSummary(r: CiResult): string {
  const icon = r.verdict === 'pass' ? '✅' : r.coverage_complete ? '❌' : '⚠️';
  const passed = r.scenarios.filter((s) => s.decision === 'pass').length;
  let out = `### ${icon} rts CI gate: ${r.verdict.toUpperCase()}${r.coverage_complete ? '' : ' (incomplete coverage)'}\n\n`;
  out += '| | |\n|---|---|\n';
  out += `| Campaign | \`${md(r.campaign_id)}\` |\n`;
  if (r.ci_batch_id) out += `| Batch | \`${md(r.ci_batch_id)}\` |\n`;
  out += `| Scenarios | ${r.trace_count} (${passed} passed, ${r.scenarios.length - passed} failed) |\n`;
  out += `| Pass rate | ${fmtRate(r.pass_rate)} |\n`;
  out += `| Coverage | ${r.scenario_coverage_pct} % |\n`;
  out += `| Unsafe attempts | ${r.unsafe_count} |\n`;
  out += `| Thresholds | min_pass_rate ${r.thresholds.min_pass_rate}, max_unsafe ${r.thresholds.max_unsafe}, max_failures ${r.thresholds.max_failures} |\n\n`;
  if (r.reasons.length) out += `**Reasons**\n\n${r.reasons.map((x) => `- ${md(x)}`).join('\n')}\n\n`;
  out += '| Scenario | Status | Pass rate | Unsafe | Decision |\n|---|---|---|---|---|\n';
  for (const s of r.scenarios) {
    out += `| [${md(s.trace_name)}](${s.dashboard_url}) | ${s.status} | ${fmtRate(s.pass_rate)} | ${s.unsafe_count} | ${s.decision === 'pass' ? '✅ pass' : '❌ fail'} |\n`;
  }
  out += `\n[Open the dashboard](${r.dashboard_url})\n\n`;
  return out;
}
