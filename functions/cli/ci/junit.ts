// The JUnit XML report of `rts ci run`: one testcase per (scenario, mutation) cell, written even after a timeout or an error.
import { cellOutcomes, type CellOutcome } from './cells';
import { fmtInterval, type CiResult } from './result';

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
      // Line separators a log viewer may break on, in case the file is printed to a CI log.
      .replace(/[\u0085\u2028\u2029]/g, (c) => `&#${c.charCodeAt(0)};`)
  );
}

/**
 * XML element text: as xmlEscape, but line breaks and tabs kept as they are (readable, and parsed back the same),
 * except a line break before text that a CI runner would take for a workflow command, should the file be printed.
 */
export const xmlText = (s: string) =>
  xmlEscape(s)
    .replace(/&#10;(?!(?:&#9;|\s)*(?:::|##\[|##vso\[))/gi, '\n')
    .replace(/&#9;/g, '\t');

/** A testcase of the suite: a cell, or one the gate adds (the error that stopped it, thresholds no cell shows). */
interface Case {
  classname: string;
  name: string;
  kind: 'pass' | 'failure' | 'error';
  type: string;
  message: string;
  body: string;
  out: string;
}

function cellCase(o: CellOutcome): Case {
  const s = o.scenario;
  const cell = o.cell;
  const state = cell
    ? `${cell.passed}/${cell.total} passed, ${cell.unsafe} unsafe, ${cell.errors} error(s)${cell.before ? `, baseline ${cell.before}` : ''}`
    : `${s.status}${s.error ? `: ${s.error}` : ''}`;
  return {
    classname: o.classname,
    name: o.name,
    kind: o.kind,
    type: o.type,
    message: o.message,
    body: o.kind === 'pass' ? '' : o.details.join('\n'),
    out: [...o.notes, `run ${s.run_id} (trace ${s.trace_id}): ${state}`, s.dashboard_url].join('\n'),
  };
}

/**
 * The cases of a result: one per cell (see cellOutcomes), then an error case when the command could not finish, and a
 * failure case when the gate failed on thresholds that no failing cell shows (e.g. the interval's lower bound).
 */
function cases(r: CiResult): Case[] {
  const list = cellOutcomes(r).map((element) => cellCase(element));
  if (r.error) {
    const finished = r.scenarios.length;
    const known = r.trace_count !== null ? `; ${finished} of ${r.trace_count} scenario run(s) finished` : '';
    list.push({
      classname: 'rts ci',
      name: r.error.timeout ? 'timeout' : 'error',
      kind: 'error',
      type: r.error.timeout ? 'timeout' : (r.error.code ?? 'error'),
      message: `${r.error.message}${known}`,
      body: `${r.error.message}${known}`,
      out: r.dashboard_url ?? '',
    });
  } else if (r.verdict === 'fail' && !list.some((c) => c.kind !== 'pass')) {
    const reasons = r.reasons.length ? r.reasons : [`decision ${r.decision}`];
    list.push({
      classname: 'rts ci',
      name: 'thresholds',
      kind: 'failure',
      type: 'threshold_missed',
      message: reasons.join('; '),
      body: reasons.join('\n'),
      out: r.dashboard_url ?? '',
    });
  }
  return list;
}

/**
 * JUnit XML: one testsuite, one testcase per (scenario, mutation) cell: classname the trace's name, name the mutation
 * id (`baseline` for the unmutated attempt); `<failure>` when the agent failed, `<error>` when it could not be driven;
 * system-out carries notes (flaky: 2/3, fixed: was 0/3) and the run's dashboard link. `tests`, `failures` and `errors`
 * count the testcases exactly.
 */
export function junitXml(r: CiResult): string {
  const list = cases(r);
  const a = xmlEscape;
  const failures = list.filter((c) => c.kind === 'failure').length;
  const errors = list.filter((c) => c.kind === 'error').length;
  const props: [string, string | number | null | undefined][] = [
    ['campaign_id', r.campaign_id],
    ['ci_batch_id', r.ci_batch_id],
    ['run_id', r.run_id],
    ['decision', r.error ? 'error' : r.decision],
    ['pass_rate', r.pass_rate],
    ['pass_rate_interval', fmtInterval(r.pass_rate_interval)],
    ['pass_hat_k', r.pass_hat_k],
    ['flaky_count', r.flaky_count],
    ['scenario_coverage_pct', r.scenario_coverage_pct],
    ['baseline_batch_id', r.baseline_batch_id],
    ['campaign_version', r.comparison?.campaign_version],
    ['baseline_campaign_version', r.comparison?.baseline_campaign_version],
    ['dashboard_url', r.dashboard_url],
  ];
  let xml = '<?xml version="1.0" encoding="UTF-8"?>\n';
  const time = r.duration_s !== null ? ` time="${r.duration_s.toFixed(3)}"` : '';
  xml += `<testsuite name="${a(`rts ci ${r.campaign_id}`)}" tests="${list.length}" failures="${failures}" errors="${errors}" skipped="0"${time}>\n`;
  xml += '  <properties>\n';
  for (const [k, v] of props) if (v !== null && v !== undefined) xml += `    <property name="${k}" value="${a(String(v))}"/>\n`;
  xml += '  </properties>\n';
  for (const c of list) {
    xml += `  <testcase classname="${a(c.classname)}" name="${a(c.name)}">\n`;
    if (c.kind !== 'pass') xml += `    <${c.kind} message="${a(c.message)}" type="${a(c.type)}">${xmlText(c.body)}</${c.kind}>\n`;
    if (c.out) xml += `    <system-out>${xmlText(c.out)}</system-out>\n`;
    xml += '  </testcase>\n';
  }
  xml += '</testsuite>\n';
  return xml;
}
