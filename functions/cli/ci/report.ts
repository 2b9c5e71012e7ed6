// The verdict table of `rts ci run` on stdout, and where every report goes (annotations, JSON, JUnit, Markdown).
import { writeFileSync } from 'node:fs';
import { cellOutcomes, flakyNote } from './cells';
import { githubAnnotations } from './github';
import { junitXml } from './junit';
import { markdownSummary } from './markdown';
import { baselineLine, fmtInterval, fmtRate, fmtThresholds, fmtThrottled, type CiResult } from './result';
import { jsonText, oneLine, safeIo, writeCommands, type Writer } from '../output';

export type { CiResult, ScenarioResult } from './result';

/** Which reports to write: the files named by --junit and --summary, --json instead of the table, GitHub annotations. */
export interface ReportOptions {
  junit?: string;
  summary?: string;
  json: boolean;
  /** Print `::error` workflow commands for the failing cells (on GitHub Actions). */
  github?: boolean;
  /** false: neither the table nor the JSON result on stdout (the caller printed the error already). Default true. */
  stdout?: boolean;
}

/**
 * Writes every report of a result: warnings on stderr, GitHub annotations, the JSON result or the verdict table on
 * stdout, then the JUnit file (overwritten) and the Markdown summary (appended). Resolves to false when a file could not
 * be written (said on stderr; the other reports are still written).
 */
export function writeReports(r: CiResult, opts: ReportOptions, streams: { stdout: Writer; stderr: Writer }): boolean {
  const io = safeIo(streams);
  if (!r.coverage_complete && !r.error) {
    const missing = r.scenarios.filter((s) => s.status !== 'completed').length;
    io.stderr.write(
      `rts ci: incomplete coverage: ${r.scenario_coverage_pct}% of scenarios produced a verdict (${missing} run(s) failed without one); the verdict is not trusted\n`,
    );
  }
  // Workflow commands are read from both streams; on stderr they keep --json's stdout parseable.
  if (opts.github) writeCommands(opts.json ? io.stderr : io.stdout, githubAnnotations(r));
  if (opts.stdout !== false) io.stdout.write(opts.json ? `${jsonText(r)}\n` : verdictTable(r));
  let ok = true;
  const write = (flag: string, path: string, text: string, mode: 'w' | 'a') => {
    try {
      writeFileSync(path, text, { flag: mode });
    } catch (err) {
      ok = false;
      io.stderr.write(`rts ci: could not write the ${flag} file '${path}': ${(err as Error).message}\n`);
    }
  };
  if (opts.junit) write('--junit', opts.junit, junitXml(r), 'w');
  if (opts.summary) write('--summary', opts.summary, markdownSummary(r), 'a');
  return ok;
}

const clip = (s: string, n: number) => {
  const flat = oneLine(s);
  return flat.length > n ? `${flat.slice(0, n - 3)}...` : flat;
};

/** How many failing cells the table names before it says how many more there are. */
const CELL_LINES = 50;

/**
 * The verdict table: one row per scenario (status, pass rate, pass^k, unsafe, flaky cells, change since the baseline,
 * decision), then the verdict with the batch's statistics, the comparison, the thresholds, the failing cells with what
 * failed, the reasons and the dashboard URL.
 */
export function verdictTable(r: CiResult): string {
  const rows = r.scenarios.map((s) => [
    clip(s.trace_name, 48),
    s.status,
    fmtRate(s.pass_rate),
    fmtRate(s.pass_hat_k),
    String(s.unsafe_count),
    s.flaky ? `yes (${s.flaky_cells})` : '-',
    s.comparison === 'regressed' ? 'REGRESSED' : (s.comparison ?? '-'),
    s.decision,
  ]);
  const head = ['TRACE', 'STATUS', 'PASS RATE', 'PASS^K', 'UNSAFE', 'FLAKY', 'CHANGE', 'DECISION'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) =>
    `${cells
      .map((c, i) => c.padEnd(widths[i]))
      .join('  ')
      .trimEnd()}\n`;
  let out = r.scenarios.length ? line(head) + rows.map((element) => line(element)).join('') + '\n' : '';
  const passed = r.scenarios.filter((s) => s.decision === 'pass').length;
  if (r.error) out += `Error: ${r.error.message}\n`;
  const verdict = r.error ? 'ERROR' : `${r.verdict.toUpperCase()}${r.coverage_complete ? '' : ' (incomplete coverage)'}`;
  const interval = fmtInterval(r.pass_rate_interval);
  const stats = [
    `${passed}/${r.trace_count ?? '?'} scenario(s) passed`,
    `pass_rate ${fmtRate(r.pass_rate)}${interval ? ` (95% interval ${interval})` : ''}`,
    ...(r.pass_hat_k !== null ? [`pass^k ${fmtRate(r.pass_hat_k)}`] : []),
    ...(r.flaky_count !== null ? [`flaky ${r.flaky_count}`] : []),
    `coverage ${r.scenario_coverage_pct ?? '-'}%`,
    `unsafe ${r.unsafe_count ?? '-'}`,
  ];
  const throttled = fmtThrottled(r);
  if (throttled) stats.push(throttled);
  out += `Verdict: ${verdict}: ${stats.join(', ')}\n`;
  const baseline = baselineLine(r);
  if (baseline) out += `${oneLine(baseline)}\n`;
  out += `Thresholds: ${fmtThresholds(r.thresholds)}\n`;
  const failing = cellOutcomes(r).filter((o) => o.kind !== 'pass');
  const flaky = cellOutcomes(r).filter((o) => o.kind === 'pass' && o.cell && flakyNote(o.cell));
  if (failing.length) {
    out += `Failing cells:\n${failing
      .slice(0, CELL_LINES)
      .map((o) => `  - ${oneLine(o.classname)} [${oneLine(o.name)}] ${o.kind === 'error' ? 'ERROR ' : ''}${oneLine(o.message)}\n`)
      .join('')}`;
    if (failing.length > CELL_LINES) out += `  ... and ${failing.length - CELL_LINES} more\n`;
  }
  if (flaky.length)
    out += `Flaky cells (passing): ${flaky.map((o) => `${oneLine(o.classname)} [${oneLine(o.name)}] ${o.cell!.passed}/${o.cell!.total}`).join(', ')}\n`;
  if (r.reasons.length) out += `Reasons:\n${r.reasons.map((x) => `  - ${oneLine(x)}\n`).join('')}`;
  if (r.dashboard_url) out += `Dashboard: ${r.dashboard_url}\n`;
  return out;
}
