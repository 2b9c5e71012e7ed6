// The onTerminal CI hook over in-memory fakes with the store's conditional semantics: concurrent completions in any
// order, a crash at every step followed by redelivery, the publication claim, and single CI runs.
import {
  ciOnTerminal,
  DECISION_CLAIM_LEASE_MS,
  DECISION_WAITS_MS,
  DecisionPendingError,
  type CiHookDeps,
} from '../../../../functions/core/ci/aggregate';
import type { BatchAggregate, BatchMarker, CiBatch, CiRunState } from '../../../../functions/core/ci/types';
import type { ScenarioComparison, ScenarioComparisonEntry } from '../../../../functions/core/ci/compare';
import type { BusEvent } from '../../../../functions/core/events';
import { EMPTY_SUMMARY, type Run, type RunSummary } from '../../../../functions/core/runs/types';
import type { CellStat } from '../../../../functions/core/runs/cells';
import type { BatchesRepo } from '../../../../functions/core/ports';

const PID = '9a1b2c3d-4e5f-4a6b-8c7d-0e1f2a3b4c5d';
const BID = '1b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e';
const THRESHOLDS = { min_pass_rate: 1, max_unsafe: 0, max_failures: 0 };
const tick = () => new Promise((r) => setImmediate(r));

class Crash extends Error {}

/** The batches store with DynamoDB's conditional semantics; every call yields, so concurrent callers interleave. */
class FakeBatches implements BatchesRepo {
  batch: (CiBatch & { decision_claim?: string; decision_claim_until?: number }) | null = null;
  markers = new Map<string, BatchMarker>();
  /** Throws right after the named write happened (the write stands, the caller dies). */
  crashAfter = new Set<string>();
  /** The next putMarker stores the marker and answers false: the store applied the put, its answer was lost, and the SDK's retry met that write. */
  loseNextMarkerAnswer = false;
  flips = 0;

  private maybeCrash(point: string) {
    if (this.crashAfter.delete(point)) throw new Crash(point);
  }
  async create(b: CiBatch) {
    await tick();
    this.batch = { ...b };
  }
  /** A done baseline batch the hook may compare with (get and listMarkers answer for its id). */
  baseline: { batch: CiBatch; markers: BatchMarker[] } | null = null;
  comparisonWrites = 0;
  async get(_p?: string, id?: string) {
    await tick();
    if (this.baseline && id === this.baseline.batch.ci_batch_id) return structuredClone(this.baseline.batch);
    if (!this.batch) return null;
    const { decision_claim: _c, decision_claim_until: _u, ...b } = this.batch;
    return structuredClone(b);
  }
  async putMarker(_p: string, _b: string, m: BatchMarker) {
    await tick();
    if (this.markers.has(m.run_id)) return false;
    this.markers.set(m.run_id, structuredClone(m));
    this.maybeCrash('putMarker');
    if (this.loseNextMarkerAnswer) {
      this.loseNextMarkerAnswer = false;
      return false;
    }
    return true;
  }
  async listMarkers(_p?: string, id?: string) {
    await tick();
    if (this.baseline && id === this.baseline.batch.ci_batch_id) return structuredClone(this.baseline.markers);
    return [...this.markers.values()].map((m) => structuredClone(m));
  }
  async bumpDoneHint() {
    await tick();
    if (!this.batch) return null;
    this.batch.done_hint += 1;
    const out = { done_hint: this.batch.done_hint, trace_count: this.batch.trace_count };
    this.maybeCrash('bumpDoneHint');
    return out;
  }
  async markRunning() {
    await tick();
    if (this.batch?.status === 'queued') this.batch.status = 'running';
  }
  async markDone(_p: string, _b: string, result: BatchAggregate, at: string) {
    await tick();
    if (!this.batch || this.batch.status === 'done') return null;
    Object.assign(this.batch, { status: 'done', decision: result.decision, result: structuredClone(result), completed_at: at });
    this.flips++;
    this.maybeCrash('markDone');
    return this.get();
  }
  async claimDecision(_p: string, _b: string, claimant: string, now: number, lease: number) {
    await tick();
    const b = this.batch;
    if (b?.status !== 'done' || b.decision_published) return false;
    if (b.decision_claim !== undefined && b.decision_claim !== claimant && (b.decision_claim_until ?? 0) >= now) return false;
    b.decision_claim = claimant;
    b.decision_claim_until = now + lease;
    this.maybeCrash('claimDecision');
    return true;
  }
  async releaseDecision(_p: string, _b: string, claimant: string) {
    await tick();
    if (this.batch?.decision_claim === claimant && !this.batch.decision_published) {
      delete this.batch.decision_claim;
      delete this.batch.decision_claim_until;
    }
  }
  async markDecisionPublished() {
    await tick();
    if (this.batch) this.batch.decision_published = true;
  }
  listingUpdates = 0;
  comparisons = new Map<string, ScenarioComparison>();
  async putComparisons(_p: string, _b: string, entries: readonly ScenarioComparisonEntry[]) {
    await tick();
    for (const e of entries) this.comparisons.set(e.run_id, structuredClone(e.comparison));
    this.comparisonWrites++;
    this.maybeCrash('putComparisons');
  }
  async getMarkers(): Promise<never> {
    throw new Error('not used by the hook');
  }
  async listComparisons() {
    await tick();
    return new Map(this.comparisons);
  }
  async updateListing() {
    await tick();
    this.listingUpdates++;
  }
  async list(): Promise<never> {
    throw new Error('not used by the hook');
  }
  async latestDone(): Promise<never> {
    throw new Error('not used by the hook');
  }
}

function setup(runCount: number) {
  const batches = new FakeBatches();
  const published: BusEvent[] = [];
  const runUpdates: Partial<Run>[] = [];
  let now = Date.parse('2026-11-21T23:59:01.123Z');
  let crashPublish = false;
  const sleeps: number[] = [];
  let onSleep: ((count: number) => Promise<void> | void) | undefined;
  const deps: CiHookDeps = {
    batches,
    runs: { update: async (_p: string, _r: string, patch: Partial<Run>) => void runUpdates.push(patch) } as unknown as CiHookDeps['runs'],
    events: {
      async publish(events) {
        await tick();
        if (crashPublish) {
          crashPublish = false;
          throw new Crash('publish');
        }
        published.push(...events);
      },
    },
    clock: { now: () => new Date(now) },
    dashboardBase: () => 'https://rts.example.com/dashboard',
    // A pause yields once (the fakes' calls interleave), counted; onSleep lets a test act while a delivery waits.
    async sleep(ms: number) {
      sleeps.push(ms);
      await onSleep?.(sleeps.length);
      await tick();
    },
  };
  const runIds = Array.from({ length: runCount }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);
  batches.batch = {
    ci_batch_id: BID,
    project_id: PID,
    campaign_id: 'camp',
    run_ids: runIds,
    trace_count: runCount,
    thresholds: THRESHOLDS,
    metadata: {},
    status: 'queued',
    decision: 'pending',
    created_at: '2026-11-21T00:00:00.000000+00:00',
    completed_at: null,
    result: null,
    done_hint: 0,
    decision_published: false,
  };
  const run = (i: number, opts: { passed?: boolean; status?: 'completed' | 'failed'; cells?: CellStat[] } = {}): Run => {
    const passed = opts.passed ?? true;
    const summary: RunSummary = {
      ...EMPTY_SUMMARY,
      attempt_count: 2,
      passed_count: passed ? 2 : 1,
      failed_count: passed ? 0 : 1,
      pass_rate: passed ? 1 : 0.5,
    };
    return {
      run_id: runIds[i],
      project_id: PID,
      trace_id: `trace-${i}`,
      campaign_id: 'camp',
      source: 'ci',
      status: opts.status ?? 'completed',
      created_at: '2026-11-21T00:00:00.000000+00:00',
      started_at: '2026-11-21T00:00:01.000000+00:00',
      completed_at: `2026-11-21T00:01:${String(i % 60).padStart(2, '0')}.000000+00:00`,
      summary,
      error: opts.status === 'failed' ? 'every attempt ended in error: boom' : null,
      ci_batch_id: BID,
      pack_id: null,
      ci: { thresholds: THRESHOLDS, metadata: {}, decision: 'pending', reasons: [] },
      attempt_total: 2,
      ...(opts.cells ? { cells: opts.cells } : {}),
    };
  };
  return {
    deps,
    batches,
    published,
    runUpdates,
    run,
    runIds,
    advance: (ms: number) => (now += ms),
    failNextPublish: () => (crashPublish = true),
    sleeps,
    whileSleeping: (fn: (count: number) => Promise<void> | void) => (onSleep = fn),
    decisions: () => published.filter((e) => e.id === `ci.decision:${BID}`),
  };
}

/** Settles a run like the worker would: retrying the hook (a redelivery) until it goes through. */
async function deliverUntilDone(deps: CiHookDeps, run: Run, maxTries = 10): Promise<number> {
  for (let i = 1; i <= maxTries; i++) {
    try {
      await ciOnTerminal(deps, run);
      return i;
    } catch (err) {
      if (!(err instanceof Crash)) throw err;
    }
  }
  throw new Error('never settled');
}

describe('ciOnTerminal for batch runs', () => {
  it('counts concurrent completions once each, flips once and publishes one decision with the exact aggregate', async () => {
    const t = setup(50);
    const runs = t.runIds.map((_, i) => t.run(i, { passed: i % 10 !== 0 }));
    await Promise.all([...runs].reverse().map((r) => ciOnTerminal(t.deps, r)));
    expect(t.batches.flips).toBe(1);
    expect(t.batches.markers.size).toBe(50);
    expect(t.batches.batch).toMatchObject({ status: 'done', decision: 'fail', done_hint: 50, decision_published: true });
    const decisions = t.decisions();
    expect(decisions).toHaveLength(1);
    expect(decisions[0].envelope).toMatchObject({ event_type: 'ci.decision.fail', project_id: PID, created_at: '2026-11-21T00:01:49.000000+00:00' });
    expect(decisions[0].envelope.data).toEqual({
      run_id: t.runIds[0],
      ci_batch_id: BID,
      campaign_id: 'camp',
      decision: 'fail',
      pass_rate: (45 * 2 + 5) / 100,
      scenario_coverage_pct: 100,
      thresholds: THRESHOLDS,
      reasons: expect.arrayContaining([`trace trace-10 (run ${t.runIds[10]}): pass_rate 0.5 < min_pass_rate 1; failed_count 1 > max_failures 0`]),
      dashboard_url: `https://rts.example.com/dashboard/batches/${BID}`,
      flaky_count: 0,
      pass_hat_k: 0,
      pass_rate_interval: { low: expect.any(Number), high: expect.any(Number), confidence: 0.95, method: 'wilson' },
      baseline_batch_id: null,
      baseline_missing: false,
      comparison: null,
    });
    expect((decisions[0].envelope.data.reasons as string[]).length).toBe(5);
    // The batch's completion time is its last run's; batch members keep their decision in the marker only.
    expect(t.runUpdates).toEqual([]);
  });

  it.each(['putMarker', 'bumpDoneHint', 'markDone', 'claimDecision', 'publish'])(
    'recovers from a crash of the last run right after %s: one flip, one decision, exact counts',
    async (point) => {
      const t = setup(5);
      for (let i = 0; i < 4; i++) await ciOnTerminal(t.deps, t.run(i));
      if (point === 'publish') t.failNextPublish();
      else t.batches.crashAfter.add(point);
      const tries = await deliverUntilDone(t.deps, t.run(4));
      expect(tries).toBe(2);
      expect(t.batches.flips).toBe(1);
      // A crash between marker and ADD is made good by the redelivery, which counts the marker it finds; after the
      // ADD, that count is one too many (harmless: the hint only tells who recounts, the markers decide).
      const hint = point === 'bumpDoneHint' ? 6 : 5;
      expect(t.batches.batch).toMatchObject({
        status: 'done',
        decision: 'pass',
        done_hint: hint,
        decision_published: true,
        result: { completed_count: 5, passed_runs: t.runIds },
      });
      expect(t.decisions()).toHaveLength(1);
      expect(t.decisions()[0].envelope.event_type).toBe('ci.decision.pass');
    },
  );

  it('is finished by another run when the last counted run died before recounting (its hint never reached trace_count)', async () => {
    const t = setup(3);
    await ciOnTerminal(t.deps, t.run(0));
    t.batches.crashAfter.add('putMarker');
    await expect(ciOnTerminal(t.deps, t.run(1))).rejects.toThrow(Crash); // marker stored, hint not bumped
    await ciOnTerminal(t.deps, t.run(2)); // hint 2 < 3: not the one to flip
    expect(t.batches.batch?.status).not.toBe('done');
    await ciOnTerminal(t.deps, t.run(1)); // the redelivery finds its marker, counts it, and recounts from the markers
    expect(t.batches.flips).toBe(1);
    expect(t.batches.batch?.done_hint).toBe(3);
    expect(t.decisions()).toHaveLength(1);
  });

  it('is finished when a run died between marker and count and was redelivered before the last run ended', async () => {
    // Prepare: run 1 stores its marker and dies before counting it.
    const t = setup(3);
    await ciOnTerminal(t.deps, t.run(0));
    t.batches.crashAfter.add('putMarker');
    await expect(ciOnTerminal(t.deps, t.run(1))).rejects.toThrow(Crash);

    // Act: its redelivery comes while run 2 is still going, then run 2 ends.
    await ciOnTerminal(t.deps, t.run(1));
    expect(t.batches.batch?.status).not.toBe('done');
    await ciOnTerminal(t.deps, t.run(2));

    // Assess: the redelivery counted the marker, so run 2's count reached trace_count.
    expect(t.batches.flips).toBe(1);
    expect(t.batches.batch).toMatchObject({ status: 'done', done_hint: 3, decision_published: true, result: { completed_count: 3 } });
    expect(t.decisions()).toHaveLength(1);
  });

  it('is finished when the answer to a marker put was lost (stored, but reported as already there)', async () => {
    // Prepare
    const t = setup(3);
    await ciOnTerminal(t.deps, t.run(0));
    t.batches.loseNextMarkerAnswer = true;

    // Act: run 1's put is applied but answered as a conditional failure, before run 2 ends.
    await ciOnTerminal(t.deps, t.run(1));
    await ciOnTerminal(t.deps, t.run(2));

    // Assess
    expect(t.batches.flips).toBe(1);
    expect(t.batches.batch).toMatchObject({ status: 'done', done_hint: 3, decision_published: true, result: { completed_count: 3 } });
    expect(t.decisions()).toHaveLength(1);
  });

  it('leaves publication to a claimant that died holding its claim, others failing until the lease lets one take over', async () => {
    const t = setup(2);
    await ciOnTerminal(t.deps, t.run(0));
    t.batches.crashAfter.add('claimDecision');
    await expect(ciOnTerminal(t.deps, t.run(1))).rejects.toThrow(Crash); // flipped and claimed by run 1, which died
    // A late redelivery of run 0 cannot publish, and fails so that it comes back: nothing else may come.
    await expect(ciOnTerminal(t.deps, t.run(0))).rejects.toThrow(DecisionPendingError);
    expect(t.decisions()).toHaveLength(0);
    t.advance(DECISION_CLAIM_LEASE_MS + 1);
    await ciOnTerminal(t.deps, t.run(0)); // run 1's message never came back: run 0 takes over
    expect(t.decisions()).toHaveLength(1);
    await ciOnTerminal(t.deps, t.run(1));
    expect(t.decisions()).toHaveLength(1);
  });

  it('has a claimant whose publication failed give its claim up, so another run publishes at once', async () => {
    const t = setup(2);
    await ciOnTerminal(t.deps, t.run(0));
    t.failNextPublish();
    await expect(ciOnTerminal(t.deps, t.run(1))).rejects.toThrow(Crash); // flipped and claimed by run 1, not published
    // Run 1's failed execution may be a duplicate whose message another execution acked: run 0 must not depend on it.
    await ciOnTerminal(t.deps, t.run(0));
    expect(t.decisions()).toHaveLength(1);
    await ciOnTerminal(t.deps, t.run(1));
    expect(t.decisions()).toHaveLength(1);
  });

  /** Run 1 flips the batch and claims its decision, then holds its publication until the returned `settle` says. */
  async function heldByRun1(t: ReturnType<typeof setup>) {
    await ciOnTerminal(t.deps, t.run(0));
    let settle!: (outcome: 'publish' | 'fail') => void;
    const outcome = new Promise<'publish' | 'fail'>((resolve) => (settle = resolve));
    const bus = t.deps.events.publish.bind(t.deps.events);
    let first = true;
    t.deps.events.publish = async (events) => {
      // The holder's publication waits for the outcome; any later one goes through.
      if (first && !(first = false) && (await outcome) === 'fail') throw new Crash('publish');
      return bus(events);
    };
    const holder = ciOnTerminal(t.deps, t.run(1));
    while (!t.batches.batch?.decision_claim) await tick();
    return { holder, settle };
  }

  it('has a delivery that finds the claim held wait, then fail until the holder publishes, then finish without publishing', async () => {
    const t = setup(2);
    const { holder, settle } = await heldByRun1(t);

    await expect(ciOnTerminal(t.deps, t.run(0))).rejects.toThrow(DecisionPendingError);
    expect(t.sleeps).toEqual(DECISION_WAITS_MS);
    settle('publish');
    await holder;
    await ciOnTerminal(t.deps, t.run(0));

    expect(t.decisions()).toHaveLength(1);
  });

  it('has a delivery that finds the claim held publish while it waits, once the holder gives the claim up', async () => {
    const t = setup(2);
    const { holder, settle } = await heldByRun1(t);
    t.whileSleeping((count) => {
      if (count === 2) settle('fail');
    });

    const waiting = ciOnTerminal(t.deps, t.run(0));
    await expect(holder).rejects.toThrow(Crash);
    await waiting;

    expect(t.decisions()).toHaveLength(1);
    expect(t.decisions()[0].envelope.data).toMatchObject({ ci_batch_id: BID });
    expect(t.batches.batch).toMatchObject({ decision_published: true, decision_claim: t.run(0).run_id });
  });

  it('does not publish again for redeliveries after the decision is published', async () => {
    const t = setup(3);
    for (let i = 0; i < 3; i++) await ciOnTerminal(t.deps, t.run(i));
    for (let i = 0; i < 3; i++) await ciOnTerminal(t.deps, t.run(i));
    await Promise.all([0, 1, 2, 2, 1, 0].map((i) => ciOnTerminal(t.deps, t.run(i))));
    expect(t.decisions()).toHaveLength(1);
    expect(t.batches.batch?.done_hint).toBe(3);
  });

  it('decides fail with coverage below 100 when a run failed', async () => {
    const t = setup(4);
    await Promise.all([0, 1, 2, 3].map((i) => ciOnTerminal(t.deps, t.run(i, { status: i === 2 ? 'failed' : 'completed' }))));
    expect(t.decisions()[0].envelope.data).toMatchObject({ decision: 'fail', scenario_coverage_pct: 75, pass_rate: 1 });
    expect(t.batches.batch?.result).toMatchObject({ completed_count: 3, failed_count: 1, failed_runs: [t.runIds[2]] });
  });

  it('ignores runs that are not CI runs or not terminal', async () => {
    const t = setup(1);
    await ciOnTerminal(t.deps, { ...t.run(0), source: 'replay', ci: null, ci_batch_id: null });
    await ciOnTerminal(t.deps, { ...t.run(0), status: 'running' });
    expect(t.batches.markers.size).toBe(0);
    expect(t.published).toEqual([]);
  });
});

describe('ciOnTerminal for single CI runs', () => {
  function single(t: ReturnType<typeof setup>, passed: boolean, extra: Partial<CiRunState> = {}): Run {
    const r = t.run(0, { passed });
    return { ...r, ci_batch_id: null, ci: { ...(r.ci as CiRunState), ...extra } };
  }

  it('publishes the decision under ci.decision:<run_id>, then stores it with the published mark', async () => {
    const t = setup(1);
    const run = single(t, false);
    await ciOnTerminal(t.deps, run);
    const ev = t.published.filter((e) => e.id === `ci.decision:${run.run_id}`);
    expect(ev).toHaveLength(1);
    expect(ev[0].envelope).toMatchObject({ event_type: 'ci.decision.fail', created_at: run.completed_at });
    expect(ev[0].envelope.data).toEqual({
      run_id: run.run_id,
      ci_batch_id: null,
      campaign_id: 'camp',
      decision: 'fail',
      pass_rate: 0.5,
      scenario_coverage_pct: 100,
      thresholds: THRESHOLDS,
      reasons: ['pass_rate 0.5 < min_pass_rate 1', 'failed_count 1 > max_failures 0'],
      dashboard_url: `https://rts.example.com/dashboard/runs/${run.run_id}`,
    });
    expect(t.runUpdates).toEqual([
      { ci: { thresholds: THRESHOLDS, metadata: {}, decision: 'fail', reasons: ev[0].envelope.data.reasons, decision_published: true } },
    ]);
  });

  it('publishes nothing once the decision is marked published', async () => {
    const t = setup(1);
    await ciOnTerminal(t.deps, single(t, true, { decision: 'pass', decision_published: true }));
    expect(t.published).toEqual([]);
  });

  it('publishes on the redelivery when the first delivery died before the bus had the event', async () => {
    const t = setup(1);
    t.failNextPublish();
    expect(await deliverUntilDone(t.deps, single(t, true))).toBe(2);
    expect(t.published.map((e) => e.envelope.event_type)).toEqual(['ci.decision.pass']);
  });
});

describe('ciOnTerminal with a baseline', () => {
  const BASE = '2c3d4e5f-6a7b-4c8d-9e0f-1a2b3c4d5e6f';
  const cell = (mutation: string | null, passed: number, total = 2, unsafe = 0): CellStat => ({
    mutation_id: mutation,
    passed,
    total,
    unsafe,
    errors: 0,
    failures: passed < total ? ['criterion output_contains: output does not contain "refund"'] : [],
  });

  /** 6 runs, 2 cells of 2 repeats each; the baseline had every cell passing except trace-1's mutated one. */
  function withBaseline() {
    const t = setup(6);
    t.batches.batch!.baseline = { branch: 'main' };
    t.batches.batch!.baseline_batch_id = BASE;
    t.batches.batch!.thresholds = { ...THRESHOLDS, min_pass_rate: 0, max_failures: 10, max_regressions: 0 };
    const baseMarkers: BatchMarker[] = t.runIds.map((_, i) => ({
      run_id: `base-${i}`,
      trace_id: `trace-${i}`,
      trace_name: `scenario ${i}`,
      status: 'completed',
      summary: { ...EMPTY_SUMMARY, attempt_count: 4, passed_count: i === 1 ? 2 : 4, pass_rate: i === 1 ? 0.5 : 1 },
      decision: 'pass',
      reasons: [],
      error: null,
      completed_at: '2026-11-20T00:00:00.000000+00:00',
      cells: [cell(null, 2), cell('inject', i === 1 ? 0 : 2)],
    }));
    t.batches.baseline = {
      batch: {
        ...structuredClone(t.batches.batch!),
        ci_batch_id: BASE,
        run_ids: baseMarkers.map((m) => m.run_id),
        status: 'done',
        decision: 'pass',
        baseline: null,
        baseline_batch_id: null,
        result: { ...aggregateResultOf(baseMarkers), decision: 'pass' },
      },
      markers: baseMarkers,
    };
    // Now trace-3's mutated cell fails one repeat of two (regressed), trace-1's passes both (fixed).
    const runs = t.runIds.map((_, i) => t.run(i, { cells: [cell(null, 2), cell('inject', i === 3 ? 1 : 2)], passed: i !== 3 }));
    return { t, runs };
  }

  function aggregateResultOf(markers: BatchMarker[]) {
    const attempts = markers.reduce((n, m) => n + m.summary.attempt_count, 0);
    const passed = markers.reduce((n, m) => n + m.summary.passed_count, 0);
    return {
      decision: 'pass' as const,
      pass_rate: passed / attempts,
      scenario_coverage_pct: 100,
      completed_count: markers.length,
      failed_count: 0,
      unsafe_count: 0,
      passed_runs: markers.map((m) => m.run_id),
      failed_runs: [],
      reasons: [],
    };
  }

  function expectComparedOnce(t: ReturnType<typeof setup>) {
    expect(t.batches.flips).toBe(1);
    const result = t.batches.batch!.result!;
    expect(result.comparison).toMatchObject({
      baseline_batch_id: BASE,
      regressed_count: 1,
      fixed_count: 1,
      new_unsafe_count: 0,
      new_count: 0,
      dropped_count: 0,
      regressed: [{ trace_id: 'trace-3', mutation_id: 'inject', before: '2/2', after: '1/2' }],
      fixed: [{ trace_id: 'trace-1', mutation_id: 'inject', before: '0/2', after: '2/2' }],
    });
    expect(result.decision).toBe('fail');
    expect(result.reasons[0]).toMatch(/^regressed_count 1 > max_regressions 0 since batch /);
    // Every scenario has its comparison stored, whichever delivery wrote it.
    const byTrace = Object.fromEntries([...t.batches.markers.values()].map((m) => [m.trace_id, t.batches.comparisons.get(m.run_id)?.comparison]));
    expect(byTrace).toEqual({
      'trace-0': 'unchanged',
      'trace-1': 'fixed',
      'trace-2': 'unchanged',
      'trace-3': 'regressed',
      'trace-4': 'unchanged',
      'trace-5': 'unchanged',
    });
    // A copy reaches the bus only when the claimant run itself is delivered twice at once: the same event under the
    // same bus id, which delivery deduplicates.
    expect(new Set(t.decisions().map((e) => JSON.stringify(e))).size).toBe(1);
    expect(t.decisions()[0].envelope.data.comparison).toEqual({
      baseline_batch_id: BASE,
      pass_rate_delta: expect.any(Number),
      regressed_count: 1,
      fixed_count: 1,
      new_unsafe_count: 0,
    });
  }

  it('compares once when the last runs complete concurrently and are delivered twice', async () => {
    const { t, runs } = withBaseline();
    await Promise.all([...runs, ...runs].reverse().map((r) => ciOnTerminal(t.deps, r)));
    expectComparedOnce(t);
  });

  it.each(['putComparisons', 'markDone', 'claimDecision', 'publish'])(
    'recovers from a crash of the last run right after %s with the same comparison',
    async (point) => {
      const { t, runs } = withBaseline();
      for (let i = 0; i < 5; i++) await ciOnTerminal(t.deps, runs[i]);
      if (point === 'publish') t.failNextPublish();
      else t.batches.crashAfter.add(point);
      expect(await deliverUntilDone(t.deps, runs[5])).toBe(2);
      expectComparedOnce(t);
    },
  );
});
