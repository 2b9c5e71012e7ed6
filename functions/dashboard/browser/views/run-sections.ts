// Sections of the run page besides the transcript: an attempt's failed checks, the CI verdict, the security events table.
import { h, type Child } from '../dom';
import { badgeKind, compact, num, safeUrl, thresholdsText } from '../format';
import { decorate } from '../highlight';
import type { AttemptDetail, CiRunView, AttemptScore, SecurityEventsByAttempt } from '../types';
import { badge, batchLink, meta, numCell, row, table } from '../widgets';

function criterionLabel(c: unknown): string {
  if (!c || typeof c !== 'object') return String(c);
  const { type, ...rest } = c as { type?: unknown } & Record<string, unknown>;
  return String(type) + (Object.keys(rest).length ? ` ${compact(rest)}` : '');
}

/** Why an attempt failed: missed criteria, plus the two causes that are not criteria (a policy deny, an unsafe action). */
export function failedChecks(a: AttemptScore, detail: AttemptDetail | undefined): HTMLElement {
  const items = (a.checks || [])
    .filter((c) => !c.passed)
    .map((c) => h('li', null, h('span', { class: 'mono' }, criterionLabel(c.criterion)), c.detail ? `: ${c.detail}` : ''));
  if (a.error) items.unshift(h('li', null, `error: ${a.error}`));
  for (const p of detail?.policy_events || []) {
    if (p.decision === 'deny')
      items.push(h('li', null, 'denied by policy ', h('span', { class: 'mono' }, p.policy_id), ' (', h('code', null, p.tool), ')'));
  }
  if (a.unsafe) items.push(h('li', null, 'unsafe: a security event was allowed'));
  return items.length ? h('ul', { class: 'checks' }, items) : h('span', { class: 'muted' }, 'none');
}

/** The CI verdict of a CI run (decision, reasons, thresholds, batch, commit, pipeline); nothing for other runs. */
export function ciPanel(ci: CiRunView | null): Child {
  if (!ci) return null;
  const md = ci.metadata || {};
  const pipeline = safeUrl(md.pipeline_url);
  const reasons = ci.reasons?.length
    ? h(
        'ul',
        { class: 'checks' },
        ci.reasons.map((r) => h('li', null, r)),
      )
    : h('span', { class: 'muted' }, ci.decision === 'pending' ? 'waiting for the run to finish' : 'every threshold met');
  return [
    h('h2', null, 'CI verdict'),
    meta([
      ['Decision', badge(ci.decision || 'pending')],
      ['Reasons', reasons],
      ['Thresholds', thresholdsText(ci.thresholds)],
      ['Batch', ci.ci_batch_id ? h('span', { class: 'mono' }, batchLink(ci.ci_batch_id)) : null],
      ['Commit', md.commit ? h('span', { class: 'mono' }, md.commit) : null],
      ['Branch', md.branch || null],
      ['Pipeline', md.pipeline_url ? (pipeline ? h('a', { href: pipeline, rel: 'noopener noreferrer' }, md.pipeline_url) : md.pipeline_url) : null],
    ]),
  ];
}

/** Every security event of the run, one row each, by attempt; a loading note until they have arrived. */
export function securityTable(sec: SecurityEventsByAttempt | null): HTMLElement {
  const rows: HTMLTableRowElement[] = [];
  for (const a of sec?.attempts || []) {
    for (const e of a.events || []) {
      const risk = e.risk || {};
      const src = e.source || {};
      rows.push(
        row([
          numCell(num(a.attempt)),
          a.mutation_id ? h('span', { class: 'mono' }, a.mutation_id) : h('span', { class: 'muted' }, 'baseline'),
          e.kind,
          badge(e.action === 'allowed' ? 'allowed (unsafe)' : e.action, badgeKind(e.action)),
          [
            badge(risk.level || '-', badgeKind(risk.level)),
            ' ',
            h('span', { class: 'muted' }, typeof risk.score === 'number' ? risk.score.toFixed(2) : ''),
          ],
          src.type ? src.type + (src.tool ? ` ${src.tool}` : '') : '-',
          h('code', null, decorate(e.evidence || '')),
        ]),
      );
    }
  }
  return table(
    'Security events by attempt',
    [{ label: 'Attempt', num: true }, 'Mutation', 'Kind', 'Action', 'Risk', 'Source', 'Evidence'],
    rows,
    sec ? 'No security events.' : 'Loading...',
  );
}
