// The campaign page: its name and settings, its versions with what each changed, its eval-set (trace names from its
// latest batch) and its CI batches.
import { allPages, api } from '../api';
import { BATCH_PAGE, LIST_PAGE } from '../config';
import { h, renderKeepingFocus, type Child } from '../dom';
import { fail } from '../failure';
import { compact, num, pct } from '../format';
import { poll } from '../polling';
import type { Campaign, CampaignVersion, EvalSet, CiScenario } from '../types';
import { badge, batchLink, crumbs, link, meta, numCell, row, runLink, table, traceLabel, when } from '../widgets';
import { anyBatchActive, batchesTable, loadBatchPages, loadMoreBatches, refreshingNote, type BatchPages } from './batch-list';

/** What the campaign page has loaded. */
interface CampaignState {
  campaign: Campaign | null;
  evalSet: EvalSet | null;
  /** The campaign's versions, newest first, and the version they were read at (read again when it changes). */
  versions: CampaignVersion[];
  versionsOf: number | null;
  batches: BatchPages;
  /** The batch whose scenarios gave the eval-set's names and latest results, with its status when they were read. */
  latestKey: string | null;
  latestBatch: string | null;
  latest: Map<string, CiScenario>;
  shown: number;
}

function list(items: readonly Child[]): Child {
  return items.length
    ? h(
        'ul',
        { class: 'checks' },
        items.map((i) => h('li', null, i)),
      )
    : h('span', { class: 'muted' }, 'none');
}

function targetText(c: Campaign): string {
  const t = c.target;
  const where = t.type === 'http' || t.type === 'mcp' ? t.url : t.type === 'openai' ? [t.base_url, t.model].filter(Boolean).join(' ') : '';
  const timeout = t.type === 'recorded' ? undefined : t.timeout_ms;
  return `${t.type || 'unknown'}${where ? ` ${where}` : ''}${typeof timeout === 'number' ? ` (timeout ${timeout} ms)` : ''}`;
}

/** The campaign's settings as label/value pairs. */
function settings(c: Campaign, ev: EvalSet | null): HTMLElement {
  const evCount = ev?.trace_count ?? c.eval_set?.trace_count;
  const minScenarios = ev?.min_scenarios ?? c.eval_set?.min_scenarios;
  return meta([
    ['Campaign id', h('span', { class: 'mono' }, c.campaign_id)],
    ['Version', typeof c.version === 'number' ? num(c.version) : null],
    ['Target', targetText(c)],
    ['Repeats', num(c.repeats)],
    ['Baseline attempt', c.include_baseline === false ? 'no' : 'yes'],
    ['Max steps', typeof c.max_steps === 'number' ? num(c.max_steps) : null],
    ['Mutations', list((c.mutations || []).map((m) => [h('span', { class: 'mono' }, m.id), m.type ? ` (${m.type})` : '']))],
    ['Policies', list((c.policies || []).map((p) => [h('span', { class: 'mono' }, p.id), ` (${[p.type, p.action].filter(Boolean).join(', ')})`]))],
    ['Criteria', list((c.criteria || []).map((x) => h('code', null, compact(x))))],
    ['Detectors', c.security?.detectors ? c.security.detectors.join(', ') : null],
    ['Eval-set', `${num(evCount)} traces${typeof minScenarios === 'number' ? `, min_scenarios ${minScenarios}` : ''}`],
    ['Created', when(c.created_at)],
  ]);
}

/** What a version changed against the one before it, in one line: `mutations +whisper -removed; fields: repeats`. */
function changesText(v: CampaignVersion): string {
  if (v.version === 1) return 'created';
  const c = v.changes;
  const ids = (what: string, x: { added: string[]; removed: string[]; changed: string[] }) => {
    const parts = [...x.added.map((i) => `+${i}`), ...x.removed.map((i) => `-${i}`), ...x.changed.map((i) => `~${i}`)];
    return parts.length ? [`${what} ${parts.join(' ')}`] : [];
  };
  const criteria = [
    ...(c.criteria.added.length ? [`+${c.criteria.added.length}`] : []),
    ...(c.criteria.removed.length ? [`-${c.criteria.removed.length}`] : []),
  ];
  const parts = [
    ...ids('mutations', c.mutations),
    ...ids('policies', c.policies),
    ...(criteria.length ? [`criteria ${criteria.join(' ')}`] : []),
    ...(c.fields.length ? [`fields: ${c.fields.join(', ')}`] : []),
  ];
  return parts.length ? parts.join('; ') : 'no change';
}

function versionsTable(st: CampaignState, current: number | undefined): HTMLElement {
  const rows = st.versions.map((v) =>
    row([
      numCell(`v${v.version}${v.version === current ? ' (current)' : ''}`),
      when(v.created_at),
      v.name,
      h('span', { class: 'version-changes' }, changesText(v)),
    ]),
  );
  return table('Campaign versions, newest first, with what each changed', [{ label: 'Version', num: true }, 'Committed', 'Name', 'Changes'], rows);
}

function evalSetTable(st: CampaignState, onMore: () => void): HTMLElement {
  const ids = st.evalSet?.trace_ids || [];
  const rows = ids.slice(0, st.shown).map((tid, i) => {
    const s = st.latest.get(tid);
    return row([
      numCell(String(i + 1)),
      traceLabel(tid, s?.trace_name),
      h('span', { class: 'mono' }, tid),
      s ? [badge(s.decision || s.status || 'pending'), ' ', runLink(s.run_id, pct(s.pass_rate))] : h('span', { class: 'muted' }, '-'),
    ]);
  });
  const caption = st.latestBatch ? 'Eval-set traces, with their result in the latest batch' : 'Eval-set traces';
  const wrap = table(caption, [{ label: '#', num: true }, 'Trace', 'Trace id', 'Latest result'], rows, 'The eval-set is empty.');
  if (ids.length > st.shown) {
    wrap.appendChild(
      h(
        'div',
        { class: 'pager' },
        h(
          'button',
          { type: 'button', id: 'show-more-traces', onclick: onMore },
          `Show ${Math.min(BATCH_PAGE, ids.length - st.shown)} more of ${ids.length}`,
        ),
      ),
    );
  }
  return wrap;
}

function render(st: CampaignState, c: Campaign, onMoreTraces: () => void, onMoreBatches: () => void): void {
  renderKeepingFocus([
    crumbs([link('', 'Dashboard'), 'Campaign']),
    h('h1', null, h('span', null, 'Campaign ', h('span', { class: 'campaign-name' }, c.name || c.campaign_id))),
    settings(c, st.evalSet),
    h('h2', null, 'Versions'),
    versionsTable(st, c.version),
    h('h2', null, 'Eval-set'),
    st.latestBatch
      ? h('p', { class: 'muted' }, 'Names and results from the latest batch, ', h('span', { class: 'mono' }, batchLink(st.latestBatch)), '.')
      : null,
    evalSetTable(st, onMoreTraces),
    h('h2', null, 'CI batches'),
    batchesTable('CI batches of this campaign, newest first', st.batches, {
      withCampaign: false,
      emptyText: 'No CI batch of this campaign yet.',
      onMore: onMoreBatches,
    }),
    refreshingNote(anyBatchActive(st.batches), 'batches'),
  ]);
}

/**
 * Reads the scenarios of the latest done batch (the newest batch when none is done) again when that batch or its
 * status has changed since the last read.
 */
async function refreshLatest(st: CampaignState): Promise<void> {
  const newest = st.batches.items.find((b) => b.status === 'done') || st.batches.items[0];
  if (!newest) return;
  const key = `${newest.ci_batch_id}:${newest.status}`;
  if (key === st.latestKey) return;
  const items = await allPages<CiScenario>(`/v1/ci/batch/${encodeURIComponent(newest.ci_batch_id)}/scenarios?limit=${LIST_PAGE}`);
  st.latest = new Map(items.map((s) => [s.trace_id, s]));
  st.latestBatch = newest.ci_batch_id;
  st.latestKey = key;
}

/** Shows campaign `id`, refreshed every 2 s while one of its listed batches is in progress. */
export function campaignView(id: string): Promise<void> {
  document.title = `Campaign ${id} - rts dashboard`;
  const path = `/v1/campaigns/${encodeURIComponent(id)}`;
  const query = { campaign_id: id };
  const st: CampaignState = {
    campaign: null,
    evalSet: null,
    versions: [],
    versionsOf: null,
    batches: { items: [], pages: 1, next: null },
    latestKey: null,
    latestBatch: null,
    latest: new Map(),
    shown: BATCH_PAGE,
  };
  const redraw = (): void => {
    if (st.campaign) render(st, st.campaign, moreTraces, moreBatches);
  };
  function moreTraces(): void {
    st.shown += BATCH_PAGE;
    redraw();
  }
  function moreBatches(): void {
    loadMoreBatches(query, st.batches).then(redraw, fail);
  }

  return poll(async () => {
    const [campaign, evalSet, batches] = await Promise.all([
      api<Campaign>(path),
      api<EvalSet>(`${path}/eval-set`),
      loadBatchPages(query, st.batches.pages),
    ]);
    st.campaign = campaign;
    st.evalSet = evalSet;
    st.batches = batches;
    if (campaign.version !== st.versionsOf) {
      st.versions = await allPages<CampaignVersion>(`${path}/versions?limit=${LIST_PAGE}`);
      st.versionsOf = campaign.version;
    }
    document.title = `Campaign ${campaign.name || id} - rts dashboard`;
    await refreshLatest(st);
    redraw();
    return anyBatchActive(st.batches);
  }, fail);
}
