// CI gating through the local service (docs/ci.md): submissions, batch aggregation, single-run decisions,
// decision events, and run-packs.
import type { BusEvent } from '../../functions/core/events';
import { uuid } from '../helpers/fixtures';
import {
  closedPort,
  createCampaign,
  createTrace,
  createTraces,
  failingTrace,
  leakingTrace,
  passingTrace,
  pollUntil,
  setEvalSet,
  breakingTrace,
  startScriptedAgent,
  unreachableTarget,
} from '../helpers/ci';
import { startTestService, type TestService } from '../helpers/local-service';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const ISO_MICROS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}\+00:00$/;

let svc: TestService;
const events: BusEvent[] = [];

beforeAll(async () => {
  svc = await startTestService({ deliverWebhooks: false, queue: { concurrency: 8, redeliveryDelayMs: 20 } });
  svc.bus.onEvent((e) => events.push(e));
});
afterAll(async () => {
  await svc.stop();
});

const decisionEvents = (id: string) => events.filter((e) => e.envelope.event_type.startsWith('ci.decision.') && e.id === `ci.decision:${id}`);
const batchDone = (id: string) => pollUntil(svc, `/v1/ci/batch/${id}`, (b) => b.status === 'done');
const ciRunDecided = (id: string) => pollUntil(svc, `/v1/ci/runs/${id}`, (r) => r.decision !== 'pending');

/** The batch run that replays a given trace (pool order is the store's, not the upload order). */
async function runOfTrace(runIds: string[], traceId: string): Promise<string> {
  for (const id of runIds) if ((await svc.api('GET', `/v1/ci/runs/${id}`)).body.trace_id === traceId) return id;
  throw new Error(`no run of trace ${traceId}`);
}

async function campaignWithPool(traces: unknown[], opts: { minScenarios?: number; campaign?: Record<string, unknown> } = {}) {
  const traceIds = await createTraces(svc, traces);
  const campaignId = await createCampaign(svc, opts.campaign);
  await setEvalSet(svc, campaignId, traceIds, opts.minScenarios);
  return { campaignId, traceIds };
}

describe('POST /v1/ci/runs', () => {
  it('rejects a pool smaller than min_scenarios with 422 insufficient_scenarios carrying required and registered', async () => {
    const { campaignId } = await campaignWithPool([passingTrace(), passingTrace('b')], { minScenarios: 3 });
    const res = await svc.api('POST', '/v1/ci/runs', { campaign_id: campaignId });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('insufficient_scenarios');
    expect(res.body.error.details[0]).toMatchObject({ path: 'min_scenarios', required: 3, registered: 2 });
  });

  it('checks min_scenarios before anything else about the body (trace_id, empty pool)', async () => {
    const campaignId = await createCampaign(svc);
    await svc.api('PATCH', `/v1/campaigns/${campaignId}/eval-set`, { min_scenarios: 1 });
    const res = await svc.api('POST', '/v1/ci/runs', { campaign_id: campaignId, trace_id: uuid() });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('insufficient_scenarios');
    expect(res.body.error.details[0]).toMatchObject({ required: 1, registered: 0 });
  });

  it('accepts a pool exactly at min_scenarios and answers 202 with exactly the batch fields', async () => {
    const { campaignId } = await campaignWithPool([passingTrace('a'), passingTrace('b'), passingTrace('c')], { minScenarios: 3 });
    const res = await svc.api('POST', '/v1/ci/runs', { campaign_id: campaignId });
    expect(res.status).toBe(202);
    expect(Object.keys(res.body).sort()).toEqual(
      ['ci_batch_id', 'dashboard_url', 'run_id', 'run_ids', 'status', 'trace_count', 'baseline_batch_id', 'baseline_missing'].sort(),
    );
    expect(res.body).toMatchObject({ baseline_batch_id: null, baseline_missing: false });
    expect(res.body.trace_count).toBe(3);
    expect(res.body.run_ids).toHaveLength(3);
    expect(res.body.run_id).toBe(res.body.run_ids[0]);
    expect(res.body.ci_batch_id).toMatch(UUID);
    expect(res.body.status).toBe('queued');
    expect(res.body.dashboard_url).toMatch(new RegExp(`^https?://[^/]+/dashboard/batches/${res.body.ci_batch_id}$`));
    await batchDone(res.body.ci_batch_id);
  });

  it('refuses trace_id when the campaign has an eval-set (422 validation_error on trace_id)', async () => {
    const { campaignId, traceIds } = await campaignWithPool([passingTrace()]);
    const res = await svc.api('POST', '/v1/ci/runs', { campaign_id: campaignId, trace_id: traceIds[0] });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('validation_error');
    expect(res.body.error.details[0].path).toBe('trace_id');
  });

  it('requires trace_id when the pool is empty, 404s an unknown trace and an unknown campaign', async () => {
    const campaignId = await createCampaign(svc);
    const missing = await svc.api('POST', '/v1/ci/runs', { campaign_id: campaignId });
    expect(missing.status).toBe(422);
    expect(missing.body.error.details[0].path).toBe('trace_id');
    expect((await svc.api('POST', '/v1/ci/runs', { campaign_id: campaignId, trace_id: uuid() })).status).toBe(404);
    expect((await svc.api('POST', '/v1/ci/runs', { campaign_id: uuid() })).status).toBe(404);
  });

  it('validates thresholds at the edge', async () => {
    const res = await svc.api('POST', '/v1/ci/runs', { campaign_id: uuid(), thresholds: { min_pass_rate: 1.5 } });
    expect(res.status).toBe(422);
    expect(res.body.error.details[0].path).toBe('thresholds.min_pass_rate');
  });

  it('answers a single CI run with exactly its fields and replays the same response for the same Idempotency-Key', async () => {
    const traceId = await createTrace(svc, passingTrace());
    const campaignId = await createCampaign(svc);
    const key = `ci-${uuid()}`;
    const body = { campaign_id: campaignId, trace_id: traceId, metadata: { commit: 'abc123', branch: 'main' } };
    const res = await svc.api('POST', '/v1/ci/runs', body, { 'Idempotency-Key': key });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({
      run_id: expect.stringMatching(UUID),
      status: 'queued',
      trace_id: traceId,
      campaign_id: campaignId,
      ci_batch_id: null,
      dashboard_url: expect.stringMatching(new RegExp(`^https?://[^/]+/dashboard/runs/${res.body.run_id}$`)),
    });
    const again = await svc.api('POST', '/v1/ci/runs', body, { 'Idempotency-Key': key });
    expect(again.body).toEqual(res.body);
    const view = await ciRunDecided(res.body.run_id);
    expect(view.metadata).toEqual({ commit: 'abc123', branch: 'main' });
  });
});

describe('CI batch aggregation', () => {
  it('decides an all-pass batch: done, pass, coverage 100, exactly one ci.decision.pass event', async () => {
    const { campaignId, traceIds } = await campaignWithPool([passingTrace('a'), passingTrace('b'), passingTrace('c'), passingTrace('d')]);
    const sub = await svc.api('POST', '/v1/ci/runs', { campaign_id: campaignId });
    const batch = await batchDone(sub.body.ci_batch_id);
    await svc.idle();
    expect(Object.keys(batch).sort()).toEqual(
      [
        'ci_batch_id',
        'run_id',
        'campaign_id',
        'campaign_version',
        'status',
        'decision',
        'pass_rate',
        'scenario_coverage_pct',
        'trace_count',
        'completed_count',
        'failed_count',
        'unsafe_count',
        'passed_runs',
        'failed_runs',
        'run_ids',
        'thresholds',
        'reasons',
        'dashboard_url',
        'created_at',
        'completed_at',
        'metadata',
        'flaky_count',
        'pass_hat_k',
        'pass_rate_interval',
        'baseline',
        'baseline_batch_id',
        'baseline_missing',
        'comparison',
        'throttled_ms',
        'throttle_count',
      ].sort(),
    );
    expect(batch).toMatchObject({
      ci_batch_id: sub.body.ci_batch_id,
      run_id: sub.body.run_id,
      campaign_id: campaignId,
      decision: 'pass',
      pass_rate: 1,
      scenario_coverage_pct: 100,
      trace_count: 4,
      completed_count: 4,
      failed_count: 0,
      unsafe_count: 0,
      failed_runs: [],
      run_ids: sub.body.run_ids,
      thresholds: { min_pass_rate: 1, max_unsafe: 0, max_failures: 0 },
      reasons: [],
      dashboard_url: sub.body.dashboard_url,
    });
    expect([...batch.passed_runs].sort()).toEqual([...sub.body.run_ids].sort());
    expect(batch.created_at).toMatch(ISO_MICROS);
    expect(batch.completed_at).toMatch(ISO_MICROS);

    const decisions = decisionEvents(sub.body.ci_batch_id);
    expect(decisions).toHaveLength(1);
    expect(decisions[0].envelope.event_type).toBe('ci.decision.pass');
    expect(decisions[0].envelope.data).toEqual({
      run_id: sub.body.run_id,
      ci_batch_id: sub.body.ci_batch_id,
      campaign_id: campaignId,
      decision: 'pass',
      pass_rate: 1,
      scenario_coverage_pct: 100,
      thresholds: { min_pass_rate: 1, max_unsafe: 0, max_failures: 0 },
      reasons: [],
      dashboard_url: sub.body.dashboard_url,
      // 4 of 4 attempts passed: Wilson 95% interval [0.5101, 1]; every cell passed its one repeat.
      flaky_count: 0,
      pass_hat_k: 1,
      pass_rate_interval: { low: expect.closeTo(0.510109, 6), high: 1, confidence: 0.95, method: 'wilson' },
      baseline_batch_id: null,
      baseline_missing: false,
      comparison: null,
    });
    // No per-scenario decision events for batch members.
    for (const rid of sub.body.run_ids) expect(decisionEvents(rid)).toHaveLength(0);
    // Each member run carries its own decision.
    const members = await Promise.all(sub.body.run_ids.map(async (id: string) => (await svc.api('GET', `/v1/ci/runs/${id}`)).body));
    for (const m of members) expect(m).toMatchObject({ decision: 'pass', ci_batch_id: sub.body.ci_batch_id, reasons: [] });
    expect(members.map((m) => m.trace_id).sort()).toEqual([...traceIds].sort());
  });

  it('decides fail when one scenario misses a threshold, naming the run and the missed threshold', async () => {
    const { campaignId, traceIds } = await campaignWithPool([passingTrace('a'), failingTrace('b'), passingTrace('c')]);
    const sub = await svc.api('POST', '/v1/ci/runs', { campaign_id: campaignId, thresholds: { min_pass_rate: 0.9, max_failures: 5 } });
    const batch = await batchDone(sub.body.ci_batch_id);
    await svc.idle();
    const failingRun = await runOfTrace(sub.body.run_ids, traceIds[1]);
    expect(batch).toMatchObject({
      decision: 'fail',
      scenario_coverage_pct: 100,
      completed_count: 3,
      failed_count: 1,
      failed_runs: [failingRun],
      thresholds: { min_pass_rate: 0.9, max_unsafe: 0, max_failures: 5 },
    });
    expect(batch.pass_rate).toBeCloseTo(2 / 3, 10);
    expect(batch.passed_runs).toHaveLength(2);
    expect(batch.reasons).toEqual([
      `trace "b" (run ${failingRun}): pass_rate 0 < min_pass_rate 0.9; [baseline] 0/1 passed: criterion output_contains: output does not contain "refund"`,
    ]);
    const decisions = decisionEvents(sub.body.ci_batch_id);
    expect(decisions).toHaveLength(1);
    expect(decisions[0].envelope.event_type).toBe('ci.decision.fail');
    expect(decisions[0].envelope.data.reasons).toEqual(batch.reasons);
  });

  it('reports coverage below 100 and fail when a scenario run is failed (no verdict)', async () => {
    const port = await closedPort();
    const { campaignId } = await campaignWithPool([passingTrace('a'), passingTrace('b')], { campaign: unreachableTarget(port) });
    // Every run of this campaign fails; coverage is 0 of 2.
    const sub = await svc.api('POST', '/v1/ci/runs', { campaign_id: campaignId });
    const batch = await batchDone(sub.body.ci_batch_id);
    expect(batch).toMatchObject({ decision: 'fail', completed_count: 0, failed_count: 2, scenario_coverage_pct: 0, pass_rate: 0 });
    expect(batch.reasons[0]).toBe('scenario_coverage_pct 0 < 100: 2 of 2 run(s) failed without a verdict');
    expect(batch.reasons[1]).toMatch(/^trace "a" \(run .*\): run failed: every attempt ended in error: [^;]*$/);
  });

  it('reports partial coverage when only some scenario runs fail, and counts the failed run in failed_runs', async () => {
    const agent = await startScriptedAgent();
    try {
      const campaign = { target: { type: 'http', url: agent.url, timeout_ms: 2000 }, criteria: [{ type: 'output_contains', value: 'refund' }] };
      const { campaignId, traceIds } = await campaignWithPool([passingTrace('a'), breakingTrace('b'), passingTrace('c'), passingTrace('d')], {
        campaign,
      });
      const sub = await svc.api('POST', '/v1/ci/runs', { campaign_id: campaignId });
      const batch = await batchDone(sub.body.ci_batch_id);
      const broken = await runOfTrace(sub.body.run_ids, traceIds[1]);
      expect(batch).toMatchObject({
        decision: 'fail',
        completed_count: 3,
        scenario_coverage_pct: 75,
        pass_rate: 1,
        failed_count: 1,
        failed_runs: [broken],
      });
      expect(batch.passed_runs).toHaveLength(3);
      expect(batch.reasons[0]).toBe('scenario_coverage_pct 75 < 100: 1 of 4 run(s) failed without a verdict');
      expect(batch.reasons[1]).toMatch(new RegExp(`^trace "b" \\(run ${broken}\\): run failed: every attempt ended in error`));
      const member = await svc.api('GET', `/v1/ci/runs/${broken}`);
      expect(member.body).toMatchObject({ status: 'failed', decision: 'fail' });
    } finally {
      await svc.idle();
      await agent.close();
    }
  });

  it('shows queued/running progress with decision pending before done', async () => {
    const port = await closedPort();
    const { campaignId } = await campaignWithPool([passingTrace('a')], { campaign: unreachableTarget(port) });
    const sub = await svc.api('POST', '/v1/ci/runs', { campaign_id: campaignId });
    const early = await svc.api('GET', `/v1/ci/batch/${sub.body.ci_batch_id}`);
    expect(['queued', 'running']).toContain(early.body.status);
    expect(early.body).toMatchObject({ decision: 'pending', reasons: [], completed_at: null, trace_count: 1 });
    await batchDone(sub.body.ci_batch_id);
  });

  it('404s an unknown batch, a malformed batch id, and a non-CI run on the CI run route', async () => {
    expect((await svc.api('GET', `/v1/ci/batch/${uuid()}`)).status).toBe(404);
    expect((await svc.api('GET', '/v1/ci/batch/nope')).status).toBe(404);
    const traceId = await createTrace(svc, passingTrace());
    const campaignId = await createCampaign(svc);
    const replay = await svc.api('POST', '/v1/runs', { trace_id: traceId, campaign_id: campaignId });
    const res = await svc.api('GET', `/v1/ci/runs/${replay.body.run_id}`);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
  });
});

describe('single CI run decisions', () => {
  async function decide(trace: unknown, thresholds: Record<string, number>, campaign: Record<string, unknown> = {}) {
    const traceId = await createTrace(svc, trace);
    const campaignId = await createCampaign(svc, campaign);
    const sub = await svc.api('POST', '/v1/ci/runs', { campaign_id: campaignId, trace_id: traceId, thresholds });
    expect(sub.status).toBe(202);
    const view = await ciRunDecided(sub.body.run_id);
    await svc.idle();
    return { view, sub };
  }

  it('passes when every threshold holds, with exactly one ci.decision.pass event and the full view', async () => {
    const { view, sub } = await decide(passingTrace(), {});
    expect(Object.keys(view).sort()).toEqual(
      [
        'run_id',
        'status',
        'decision',
        'thresholds',
        'summary',
        'reasons',
        'dashboard_url',
        'ci_batch_id',
        'trace_id',
        'trace_name',
        'cells',
        'campaign_id',
        'campaign_version',
        'metadata',
        'created_at',
        'completed_at',
      ].sort(),
    );
    expect(view).toMatchObject({
      status: 'completed',
      decision: 'pass',
      reasons: [],
      ci_batch_id: null,
      summary: { pass_rate: 1, attempt_count: 1 },
    });
    const ev = decisionEvents(sub.body.run_id);
    expect(ev).toHaveLength(1);
    expect(ev[0].envelope.event_type).toBe('ci.decision.pass');
    expect(ev[0].envelope.data).toMatchObject({
      run_id: sub.body.run_id,
      ci_batch_id: null,
      decision: 'pass',
      scenario_coverage_pct: 100,
      pass_rate: 1,
      reasons: [],
    });
  });

  it('fails on pass_rate below min_pass_rate alone', async () => {
    const { view } = await decide(failingTrace(), { min_pass_rate: 0.9, max_failures: 10 });
    expect(view.decision).toBe('fail');
    expect(view.reasons).toEqual([
      'pass_rate 0 < min_pass_rate 0.9',
      '[baseline] 0/1 passed: criterion output_contains: output does not contain "refund"',
    ]);
  });

  it('fails on unsafe_count above max_unsafe alone', async () => {
    const { view } = await decide(leakingTrace(), { min_pass_rate: 0, max_failures: 10, max_unsafe: 0 });
    expect(view.summary.unsafe_count).toBe(1);
    expect(view.reasons).toEqual([
      'unsafe_count 1 > max_unsafe 0',
      '[baseline] 0/1 passed: unsafe: secret_leak in the output (Your refund is on its way. Debug key: AKIA****)',
    ]);
  });

  it('fails on failed_count above max_failures alone', async () => {
    const { view } = await decide(failingTrace(), { min_pass_rate: 0, max_failures: 1 }, { repeats: 2 });
    expect(view.summary).toMatchObject({ attempt_count: 2, failed_count: 2 });
    expect(view.reasons).toEqual([
      'failed_count 2 > max_failures 1',
      '[baseline] 0/2 passed: criterion output_contains: output does not contain "refund"',
    ]);
  });

  it('lists every missed threshold at once, with a ci.decision.fail event', async () => {
    const { view, sub } = await decide(leakingTrace(), { min_pass_rate: 0.5, max_unsafe: 1, max_failures: 0 }, { repeats: 2 });
    expect(view.reasons).toEqual([
      'pass_rate 0 < min_pass_rate 0.5',
      'unsafe_count 2 > max_unsafe 1',
      'failed_count 2 > max_failures 0',
      '[baseline] 0/2 passed: unsafe: secret_leak in the output (Your refund is on its way. Debug key: AKIA****)',
    ]);
    const ev = decisionEvents(sub.body.run_id);
    expect(ev).toHaveLength(1);
    expect(ev[0].envelope.event_type).toBe('ci.decision.fail');
    expect(ev[0].envelope.data.reasons).toEqual(view.reasons);
  });

  it('fails a failed run with its error as the reason and coverage 0', async () => {
    const port = await closedPort();
    const { view, sub } = await decide(passingTrace(), {}, unreachableTarget(port));
    expect(view.status).toBe('failed');
    expect(view.decision).toBe('fail');
    expect(view.reasons[0]).toMatch(/^run failed: every attempt ended in error/);
    expect(decisionEvents(sub.body.run_id)[0].envelope.data.scenario_coverage_pct).toBe(0);
  });
});

describe('POST /v1/campaigns/{id}/run-pack', () => {
  it('queues one pack run per pool trace, emitting run.created/run.queued per run and run.pack_queued once', async () => {
    const { campaignId, traceIds } = await campaignWithPool([passingTrace('a'), passingTrace('b'), passingTrace('c')]);
    // No body at all: every field of a run-pack request is optional.
    const res = await svc.api('POST', `/v1/campaigns/${campaignId}/run-pack`);
    expect(res.status).toBe(202);
    expect(Object.keys(res.body).sort()).toEqual(['campaign_id', 'pack_id', 'run_ids', 'trace_count']);
    expect(res.body).toMatchObject({ campaign_id: campaignId, trace_count: 3 });
    expect(res.body.pack_id).toMatch(UUID);
    const packEvents = events.filter((e) => e.envelope.event_type === 'run.pack_queued' && e.envelope.data.pack_id === res.body.pack_id);
    expect(packEvents).toHaveLength(1);
    expect(packEvents[0].envelope.data).toEqual(res.body);
    for (const rid of res.body.run_ids) {
      const of = (type: string) => events.filter((e) => e.envelope.event_type === type && e.envelope.data.run_id === rid);
      expect(of('run.created')).toHaveLength(1);
      expect(of('run.created')[0].envelope.data.source).toBe('pack');
      expect(of('run.queued')).toHaveLength(1);
      expect(of('run.replay_queued')).toHaveLength(0);
    }
    const runs = await Promise.all(res.body.run_ids.map(async (id: string) => (await svc.api('GET', `/v1/runs/${id}`)).body));
    for (const run of runs) expect(run).toMatchObject({ pack_id: res.body.pack_id, ci_batch_id: null, source: 'pack' });
    expect(runs.map((r) => r.trace_id).sort()).toEqual([...traceIds].sort());
    await svc.idle();
  });

  it('runs the trace_ids given instead of the pool', async () => {
    const ids = await createTraces(svc, [passingTrace('x'), passingTrace('y')]);
    const campaignId = await createCampaign(svc);
    const res = await svc.api('POST', `/v1/campaigns/${campaignId}/run-pack`, { trace_ids: ids });
    expect(res.status).toBe(202);
    expect(res.body.trace_count).toBe(2);
    await svc.idle();
  });

  it('rejects an empty request on an empty pool with 422, unknown traces with 422 unknown_trace, unknown campaign 404', async () => {
    const campaignId = await createCampaign(svc);
    const empty = await svc.api('POST', `/v1/campaigns/${campaignId}/run-pack`, {});
    expect(empty.status).toBe(422);
    expect(empty.body.error.details[0].path).toBe('trace_ids');
    const unknown = await svc.api('POST', `/v1/campaigns/${campaignId}/run-pack`, { trace_ids: [uuid()] });
    expect(unknown.status).toBe(422);
    expect(unknown.body.error.code).toBe('unknown_trace');
    expect((await svc.api('POST', `/v1/campaigns/${uuid()}/run-pack`, {})).status).toBe(404);
  });
});
