// The submission rules of POST /v1/ci/runs (functions/core/ci/service.ts, docs/ci.md#submitting-a-ci-run), over
// in-memory stores: which submissions are refused and how, what a batch and a single CI run store, and how a baseline
// is resolved and changes the thresholds.
import type { BusEvent } from '../../../../functions/core/events';
import { AppError } from '../../../../functions/core/errors';
import { ciRunRequestSchema } from '../../../../functions/core/ci/schema';
import { submitCiRun, type BatchSubmitted, type SingleRunSubmitted } from '../../../../functions/core/ci/service';
import type { CiBatch } from '../../../../functions/core/ci/types';
import type { Run } from '../../../../functions/core/runs/types';
import type { Deps, ReplayMessage } from '../../../../functions/core/ports';
import { CAMPAIGN_ID, PROJECT_ID, fixedClock, makeCampaign } from '../../../helpers/replay-fakes';

/** fixedClock's instant as the service stamps it. */
const CREATED_AT = '2026-11-21T23:59:01.123000+00:00';
const OTHER_CAMPAIGN = '5e4d3c2b-1a0f-4e9d-8c7b-6a5f4e3d2c1b';
const MISSING = '11111111-2222-4333-8444-555555555555';
const traceId = (n: number) => `0b7f3c1e-5d2a-4c8e-9f10-${String(n).padStart(12, '0')}`;

/** The stores submitCiRun touches, in memory, with the order in which it wrote to them. */
interface World {
  deps: Deps;
  pool: { trace_ids: string[]; min_scenarios: number };
  traces: Set<string>;
  batches: Map<string, CiBatch>;
  runs: Run[];
  queued: ReplayMessage[];
  events: BusEvent[];
  /** 'batch' / 'runs' / 'queue' / 'events', in the order they were written. */
  writes: string[];
  /** The arguments of every latestDone call. */
  latestDoneCalls: unknown[][];
}

function world(pool: string[] = [], minScenarios = 0): World {
  let ids = 0;
  const w: World = {
    pool: { trace_ids: pool, min_scenarios: minScenarios },
    traces: new Set(pool),
    batches: new Map(),
    runs: [],
    queued: [],
    events: [],
    writes: [],
    latestDoneCalls: [],
  } as Omit<World, 'deps'> as World;
  const deps = {
    clock: fixedClock,
    uuid: () => `00000000-0000-4000-8000-${String(++ids).padStart(12, '0')}`,
    dashboardBase: () => 'https://dash.example.com',
    campaigns: {
      get: async (_p: string, id: string) => (id === CAMPAIGN_ID ? makeCampaign() : null),
      getEvalSet: async () => structuredClone(w.pool),
    },
    traces: { getSummary: async (_p: string, id: string) => (w.traces.has(id) ? { trace_id: id } : null) },
    batches: {
      create: async (b: CiBatch) => void (w.writes.push('batch'), w.batches.set(b.ci_batch_id, structuredClone(b))),
      get: async (_p: string, id: string) => w.batches.get(id) ?? null,
      latestDone: async (...args: [string, string, string]) => {
        w.latestDoneCalls.push(args);
        const [, campaignId, branch] = args;
        const done = [...w.batches.values()].filter((b) => b.status === 'done' && b.campaign_id === campaignId && b.metadata?.branch === branch);
        return done.sort((a, b) => b.created_at.localeCompare(a.created_at))[0] ?? null;
      },
    },
    runs: {
      create: async (r: Run) => void (w.writes.push('runs'), w.runs.push(structuredClone(r))),
      createMany: async (rs: Run[]) => void (w.writes.push('runs'), w.runs.push(...structuredClone(rs))),
    },
    queue: { sendReplay: async (m: ReplayMessage[]) => void (w.writes.push('queue'), w.queued.push(...m)) },
    events: { publish: async (e: BusEvent[]) => void (w.writes.push('events'), w.events.push(...e)) },
  };
  w.deps = deps as unknown as Deps;
  return w;
}

/** A request body as the route hands it over (schema defaults applied). */
const request = (body: Record<string, unknown> = {}) => ciRunRequestSchema.parse({ campaign_id: CAMPAIGN_ID, ...body });

/** A stored batch of the campaign, for baselines. */
function storedBatch(w: World, id: string, over: Partial<CiBatch> = {}): CiBatch {
  const batch = {
    ci_batch_id: id,
    project_id: PROJECT_ID,
    campaign_id: CAMPAIGN_ID,
    status: 'done',
    created_at: '2026-11-20T00:00:00.000000+00:00',
    metadata: { branch: 'main' },
    ...over,
  } as CiBatch;
  w.batches.set(id, batch);
  return batch;
}

/** The AppError a submission is refused with (fails the test when it is accepted). */
async function refusal(w: World, body: Record<string, unknown>): Promise<AppError> {
  const err = await submitCiRun(w.deps, PROJECT_ID, request(body)).then(
    (ok) => new Error(`accepted: ${JSON.stringify(ok)}`),
    (e: unknown) => e,
  );
  if (!(err instanceof AppError)) throw err;
  return err;
}

const batchOf = (w: World, res: BatchSubmitted) => w.batches.get(res.ci_batch_id) as CiBatch;
const submitBatch = async (w: World, body: Record<string, unknown> = {}) => (await submitCiRun(w.deps, PROJECT_ID, request(body))) as BatchSubmitted;
const eventTypes = (w: World) => w.events.map((e) => e.envelope.event_type);

describe('the campaign must exist', () => {
  it('refuses an unknown campaign with 404, storing nothing', async () => {
    const w = world([traceId(1)]);
    const err = await refusal(w, { campaign_id: MISSING });
    expect([err.status, err.code, err.message]).toEqual([404, 'not_found', 'Campaign not found.']);
    expect(w.writes).toEqual([]);
  });
});

describe('min_scenarios: a pool smaller than it is refused', () => {
  it('answers 422 insufficient_scenarios naming the required and registered counts, storing nothing', async () => {
    const w = world([traceId(1), traceId(2)], 3);
    const err = await refusal(w, {});
    expect([err.status, err.code]).toEqual([422, 'insufficient_scenarios']);
    expect(err.details).toEqual([{ path: 'min_scenarios', message: err.message, required: 3, registered: 2 }]);
    expect(err.message).toBe("The campaign's eval-set holds 2 trace(s); min_scenarios requires at least 3.");
    expect(w.writes).toEqual([]);
  });

  it('accepts a pool of exactly min_scenarios traces', async () => {
    const w = world([traceId(1), traceId(2)], 2);
    expect((await submitBatch(w)).trace_count).toBe(2);
  });

  it('refuses an empty pool under min_scenarios even with a trace_id (no single-run fallback)', async () => {
    const w = world([], 1);
    w.traces.add(traceId(9));
    const err = await refusal(w, { trace_id: traceId(9) });
    expect([err.status, err.code]).toEqual([422, 'insufficient_scenarios']);
    expect(w.runs).toEqual([]);
  });
});

describe('a non-empty pool makes a batch of one run per registered trace', () => {
  it('stores a queued, pending batch over the pool in pool order and answers its ids and dashboard URL', async () => {
    // Prepare
    const pool = [traceId(3), traceId(1), traceId(2)];
    const w = world(pool);
    const metadata = { commit: 'abc123', branch: 'feature/x' };
    // Act
    const res = await submitBatch(w, { metadata, thresholds: { min_pass_rate: 0.9 } });
    // Assess
    const runIds = w.runs.map((r) => r.run_id);
    const thresholds = { min_pass_rate: 0.9, max_unsafe: 0, max_failures: 0 };
    expect(w.runs.map((r) => r.trace_id)).toEqual(pool);
    expect(res).toEqual({
      run_id: runIds[0],
      run_ids: runIds,
      trace_count: 3,
      ci_batch_id: res.ci_batch_id,
      status: 'queued',
      dashboard_url: `https://dash.example.com/batches/${res.ci_batch_id}`,
      baseline_batch_id: null,
      baseline_missing: false,
    });
    expect(batchOf(w, res)).toEqual({
      ci_batch_id: res.ci_batch_id,
      project_id: PROJECT_ID,
      campaign_id: CAMPAIGN_ID,
      campaign_version: 1,
      run_ids: runIds,
      trace_count: 3,
      thresholds,
      metadata,
      status: 'queued',
      decision: 'pending',
      created_at: CREATED_AT,
      completed_at: null,
      result: null,
      done_hint: 0,
      decision_published: false,
      baseline: null,
      baseline_batch_id: null,
      baseline_missing: false,
    });
    for (const run of w.runs) {
      expect(run).toMatchObject({ source: 'ci', status: 'queued', campaign_id: CAMPAIGN_ID, ci_batch_id: res.ci_batch_id, created_at: CREATED_AT });
      expect(run.ci).toEqual({ thresholds, metadata, decision: 'pending', reasons: [] });
    }
  });

  it('queues every run and announces each as created then queued (no replay_queued: these are CI runs)', async () => {
    const w = world([traceId(1), traceId(2)]);
    const res = await submitBatch(w);
    // Each message says what its run replays, so that its first delivery need not read the run.
    const replays = (n: number) => ({ trace_id: traceId(n), campaign_id: CAMPAIGN_ID, campaign_version: 1 });
    expect(w.queued).toEqual(res.run_ids.map((run_id, i) => ({ project_id: PROJECT_ID, run_id, replays: replays(i + 1) })));
    expect(eventTypes(w)).toEqual(['run.created', 'run.created', 'run.queued', 'run.queued']);
    expect(w.events.map((e) => e.envelope.created_at)).toEqual(Array(4).fill(CREATED_AT));
  });

  it('stores the batch META before its runs, so a run finishing at once finds its batch', async () => {
    const w = world([traceId(1), traceId(2)]);
    await submitBatch(w);
    expect(w.writes).toEqual(['batch', 'runs', 'events', 'queue', 'events']);
  });

  it('stores metadata {} on the batch and its runs when none is sent', async () => {
    const w = world([traceId(1)]);
    const res = await submitBatch(w);
    expect(batchOf(w, res).metadata).toEqual({});
    expect(w.runs[0].ci?.metadata).toEqual({});
  });

  it('refuses a trace_id with 422 on trace_id: a batch runs every registered trace', async () => {
    const w = world([traceId(1)]);
    const err = await refusal(w, { trace_id: traceId(1) });
    expect([err.status, err.code, err.details]).toEqual([
      422,
      'validation_error',
      [{ path: 'trace_id', message: 'not allowed when the campaign has an eval-set' }],
    ]);
    expect(w.writes).toEqual([]);
  });
});

describe('a baseline makes regressions count: max_regressions defaults to 0', () => {
  it('sets max_regressions 0 on the batch and its runs when a baseline is given without it', async () => {
    const w = world([traceId(1)]);
    const res = await submitBatch(w, { baseline: { branch: 'main' } });
    expect(batchOf(w, res).thresholds).toEqual({ min_pass_rate: 1, max_unsafe: 0, max_failures: 0, max_regressions: 0 });
    expect(w.runs[0].ci?.thresholds.max_regressions).toBe(0);
  });

  it('keeps an explicit max_regressions', async () => {
    const w = world([traceId(1)]);
    const res = await submitBatch(w, { baseline: { branch: 'main' }, thresholds: { max_regressions: 3 } });
    expect(batchOf(w, res).thresholds.max_regressions).toBe(3);
  });

  it('adds no max_regressions without a baseline', async () => {
    const w = world([traceId(1)]);
    const res = await submitBatch(w);
    expect(batchOf(w, res).thresholds).toEqual({ min_pass_rate: 1, max_unsafe: 0, max_failures: 0 });
  });
});

describe('a baseline by batch id must name a done batch of the same campaign', () => {
  const BASE = '22222222-3333-4444-8555-666666666666';

  it('resolves a done batch of the campaign: the batch records it and answers baseline_batch_id', async () => {
    const w = world([traceId(1)]);
    storedBatch(w, BASE);
    const res = await submitBatch(w, { baseline: { batch_id: BASE } });
    expect([res.baseline_batch_id, res.baseline_missing]).toEqual([BASE, false]);
    expect(batchOf(w, res)).toMatchObject({ baseline: { batch_id: BASE }, baseline_batch_id: BASE, baseline_missing: false });
  });

  it('refuses an unknown batch id with 404, storing nothing', async () => {
    const w = world([traceId(1)]);
    const err = await refusal(w, { baseline: { batch_id: BASE } });
    expect([err.status, err.code, err.message]).toEqual([404, 'not_found', 'Baseline CI batch not found.']);
    expect(w.writes).toEqual([]);
  });

  it("refuses another campaign's batch with 422 on baseline.batch_id", async () => {
    const w = world([traceId(1)]);
    storedBatch(w, BASE, { campaign_id: OTHER_CAMPAIGN });
    const err = await refusal(w, { baseline: { batch_id: BASE } });
    expect([err.status, err.code, err.details]).toEqual([
      422,
      'validation_error',
      [{ path: 'baseline.batch_id', message: 'a batch of another campaign' }],
    ]);
    expect(w.writes).toEqual([]);
  });

  it.each(['queued', 'running'] as const)('refuses a %s batch with 422 on baseline.batch_id: its verdict is not final', async (status) => {
    const w = world([traceId(1)]);
    storedBatch(w, BASE, { status });
    const err = await refusal(w, { baseline: { batch_id: BASE } });
    expect([err.status, err.details]).toEqual([422, [{ path: 'baseline.batch_id', message: `batch is ${status}` }]]);
    expect(w.writes).toEqual([]);
  });
});

describe('a baseline by branch is the latest done batch of that branch, or baseline_missing', () => {
  it("asks the store for the campaign's latest done batch on the branch and records it", async () => {
    const w = world([traceId(1)]);
    const branch = { metadata: { branch: 'release/2.x' } };
    storedBatch(w, '22222222-0000-4000-8000-000000000001', { ...branch, created_at: '2026-11-19T00:00:00.000000+00:00' });
    const latest = storedBatch(w, '22222222-0000-4000-8000-000000000002', branch);
    storedBatch(w, '22222222-0000-4000-8000-000000000004', { created_at: '2026-11-21T00:00:00.000000+00:00' });
    const res = await submitBatch(w, { baseline: { branch: 'release/2.x' } });
    expect(w.latestDoneCalls).toEqual([[PROJECT_ID, CAMPAIGN_ID, 'release/2.x']]);
    expect([res.baseline_batch_id, res.baseline_missing]).toEqual([latest.ci_batch_id, false]);
    expect(batchOf(w, res).baseline).toEqual({ branch: 'release/2.x' });
  });

  it('accepts a branch with no done batch: baseline_missing, never a refusal', async () => {
    const w = world([traceId(1)]);
    storedBatch(w, '22222222-0000-4000-8000-000000000003', { metadata: { branch: 'other' } });
    const res = await submitBatch(w, { baseline: { branch: 'main' } });
    expect(res).toMatchObject({ status: 'queued', baseline_batch_id: null, baseline_missing: true });
    expect(batchOf(w, res)).toMatchObject({ baseline: { branch: 'main' }, baseline_batch_id: null, baseline_missing: true, decision: 'pending' });
  });
});

describe('an empty pool makes a single CI run on trace_id', () => {
  it('stores and queues one CI run carrying the thresholds, with no batch', async () => {
    // Prepare
    const w = world();
    w.traces.add(traceId(7));
    // Act
    const res = (await submitCiRun(w.deps, PROJECT_ID, request({ trace_id: traceId(7), metadata: { commit: 'c1' } }))) as SingleRunSubmitted;
    // Assess
    const [run] = w.runs;
    expect(res).toEqual({
      run_id: run.run_id,
      status: 'queued',
      trace_id: traceId(7),
      campaign_id: CAMPAIGN_ID,
      ci_batch_id: null,
      dashboard_url: `https://dash.example.com/runs/${run.run_id}`,
    });
    expect(w.runs).toHaveLength(1);
    expect(run).toMatchObject({ source: 'ci', status: 'queued', ci_batch_id: null, created_at: CREATED_AT });
    expect(run.ci).toEqual({
      thresholds: { min_pass_rate: 1, max_unsafe: 0, max_failures: 0 },
      metadata: { commit: 'c1' },
      decision: 'pending',
      reasons: [],
    });
    expect(w.batches.size).toBe(0);
    expect(w.queued).toEqual([
      { project_id: PROJECT_ID, run_id: run.run_id, replays: { trace_id: run.trace_id, campaign_id: CAMPAIGN_ID, campaign_version: 1 } },
    ]);
    expect(eventTypes(w)).toEqual(['run.created', 'run.queued']);
  });

  it('requires trace_id: 422 on trace_id', async () => {
    const w = world();
    const err = await refusal(w, {});
    expect([err.status, err.code, err.details]).toEqual([
      422,
      'validation_error',
      [{ path: 'trace_id', message: 'required when the campaign has no eval-set' }],
    ]);
  });

  it('refuses an unknown trace with 404, storing nothing', async () => {
    const w = world();
    const err = await refusal(w, { trace_id: traceId(8) });
    expect([err.status, err.message]).toEqual([404, 'Trace not found.']);
    expect(w.writes).toEqual([]);
  });

  it('refuses a baseline with 422 on baseline (nothing to compare scenario by scenario), even with a valid trace_id', async () => {
    const w = world();
    w.traces.add(traceId(7));
    const err = await refusal(w, { trace_id: traceId(7), baseline: { branch: 'main' } });
    expect([err.status, err.details]).toEqual([422, [{ path: 'baseline', message: 'not allowed when the campaign has no eval-set' }]]);
    expect(w.latestDoneCalls).toEqual([]);
    expect(w.writes).toEqual([]);
  });
});
