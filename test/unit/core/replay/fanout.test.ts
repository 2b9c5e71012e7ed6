// Long runs fanned out over deliveries (docs/campaigns-and-replay.md#long-runs-fanned-out), with in-memory fakes and a
// queue that delivers every message to executeRun: a 200-attempt run spreads over its target's max_concurrency, stores
// every attempt once, survives a delivery that dies mid-run, hands attempts on instead of cutting them at the
// deadline, and hands them on with a queue delay when the limits ask for a long wait.
import type { Deps, OutboundResponse, QueuePort, ReplayMessage } from '../../../../functions/core/ports';
import { executeRun, type ExecuteOptions, type ExecutorDeps } from '../../../../functions/core/replay/executor';
import { fanOutSize } from '../../../../functions/core/replay/fanout/delivery';
import { processLimiter } from '../../../../functions/core/replay/limits/process-limiter';
import type { Run } from '../../../../functions/core/runs/types';
import { makeCampaign, makeWorld, MemoryLeasesRepo, RUN_ID, type FakeWorld } from '../../../helpers/replay-fakes';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ok: OutboundResponse = { status: 200, headers: {}, body: JSON.stringify({ output: 'done' }), durationMs: 1 };

/** baseline + 9 mutations, `repeats` each: 200 attempts at 20 repeats. */
function longCampaign(repeats: number, target: Record<string, unknown>) {
  return makeCampaign({
    target: { type: 'http', url: 'https://agent.example.com/step', ...target },
    mutations: Array.from({ length: 9 }, (_, i) => ({ id: `m${i}`, type: 'input_perturbation', kind: 'uppercase' })),
    repeats,
    criteria: [{ type: 'completes' }],
  });
}

/** An agent answering each step after `ms`, counting requests in flight. */
function slowAgent(ms: number) {
  const a = { inFlight: 0, peak: 0, requests: 0 };
  const http = async () => {
    a.requests += 1;
    a.inFlight += 1;
    a.peak = Math.max(a.peak, a.inFlight);
    await sleep(ms);
    a.inFlight -= 1;
    return ok;
  };
  return Object.assign(a, { http });
}

interface Sent {
  msg: ReplayMessage;
  delaySeconds: number;
}

/** A queue delivering each message to executeRun (after its delay, unless `hold` keeps delayed ones back). */
class DeliveringQueue implements QueuePort {
  readonly sent: Sent[] = [];
  private readonly running = new Set<Promise<unknown>>();
  constructor(
    private readonly deliver: (msg: ReplayMessage) => Promise<unknown>,
    private readonly hold = false,
  ) {}
  async sendReplay(messages: ReplayMessage[], options: { delaySeconds?: number } = {}): Promise<void> {
    for (const msg of messages) {
      const delaySeconds = options.delaySeconds ?? 0;
      this.sent.push({ msg, delaySeconds });
      if (this.hold && delaySeconds > 0) continue;
      this.track(sleep(delaySeconds * 1000).then(() => this.deliver(msg)));
    }
  }
  track(p: Promise<unknown>): void {
    const settled = p.catch(() => undefined);
    this.running.add(settled);
    void settled.then(() => this.running.delete(settled));
  }
  async drain(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running]);
  }
}

function fannedWorld(campaign: ReturnType<typeof makeCampaign>, agent: ReturnType<typeof slowAgent>) {
  const w = makeWorld(campaign);
  const leases = new MemoryLeasesRepo();
  const deps = Object.assign(w.deps, { leases, limiter: processLimiter(), http: agent.http }) as FakeWorld['deps'] & Pick<Deps, 'leases'>;
  return { w, deps, leases };
}

const runOf = (w: FakeWorld) => w.deps.runs.runs.get(RUN_ID) as Run;

describe('fanOutSize', () => {
  it('spreads a run over its max_concurrency, 4 attempts a delivery, at most 10 deliveries', () => {
    expect(fanOutSize(200, 20)).toEqual({ deliveries: 5, perDelivery: 4 });
    expect(fanOutSize(200, undefined)).toEqual({ deliveries: 1, perDelivery: 4 });
    expect(fanOutSize(200, 3)).toEqual({ deliveries: 1, perDelivery: 4 });
    expect(fanOutSize(200, 200)).toEqual({ deliveries: 10, perDelivery: 20 });
    expect(fanOutSize(7, 1000)).toEqual({ deliveries: 2, perDelivery: 4 });
  });
});

describe('a run fanned out over deliveries', () => {
  it('runs 200 attempts of 50 ms at max_concurrency 20 in about 10 waves, each attempt stored once, one run.completed', async () => {
    // Prepare
    const agent = slowAgent(50);
    const { w, deps } = fannedWorld(longCampaign(20, { limits: { max_concurrency: 20 } }), agent);
    const opts: ExecuteOptions<ExecutorDeps> = { deadlineMs: 60_000, claimLeaseMs: 1000 };
    const queue: DeliveringQueue = new DeliveringQueue((msg) => executeRun(deps, msg, opts));
    deps.queue = queue;
    // Act
    const started = Date.now();
    queue.track(executeRun(deps, w.msg, opts));
    await queue.drain();
    const elapsed = Date.now() - started;
    // Assess
    expect(runOf(w)).toMatchObject({ status: 'completed', summary: { attempt_count: 200, passed_count: 200 } });
    expect(w.deps.runs.published.has(RUN_ID)).toBe(true);
    expect(w.deps.runs.putCalls).toBe(200);
    expect(agent.requests).toBe(200);
    expect(agent.peak).toBeLessThanOrEqual(20);
    expect(agent.peak).toBeGreaterThanOrEqual(16);
    expect(queue.sent.filter((s) => s.delaySeconds === 0).map((s) => s.msg.part)).toEqual([1, 2, 3, 4]);
    expect(w.deps.events.logical()).toEqual([`run.completed:${RUN_ID}`]);
    expect(elapsed).toBeLessThan(200 * 50); // far below one delivery at a time
  }, 30_000);

  it('runs again the attempts a dead delivery held once their claims end, each attempt stored once', async () => {
    // Prepare: part 2 dies once it has 4 requests in flight: it never answers, stores, renews nor sends again.
    const agent = slowAgent(50);
    const { w, deps } = fannedWorld(longCampaign(20, { limits: { max_concurrency: 20 } }), agent);
    const opts: ExecuteOptions<ExecutorDeps> = { deadlineMs: 60_000, claimLeaseMs: 1000 };
    let dead = false;
    let hung = 0;
    const hang = () => new Promise<never>(() => undefined);
    const dying = (msg: ReplayMessage) => {
      const runs = Object.create(w.deps.runs) as typeof w.deps.runs;
      runs.putAttempt = (pid, a) => (dead ? hang() : w.deps.runs.putAttempt(pid, a));
      const leases = Object.create(deps.leases) as MemoryLeasesRepo;
      leases.take = (...a) => (dead ? hang() : deps.leases.take(...a));
      const http = async () => {
        if (++hung >= 4) dead = true;
        return dead ? hang() : agent.http();
      };
      return executeRun({ ...deps, runs, leases, http }, msg, { ...opts, deadlineMs: 5000 }).catch(() => undefined);
    };
    const queue: DeliveringQueue = new DeliveringQueue((msg) =>
      msg.part === 2 ? (void dying(msg), Promise.resolve()) : executeRun(deps, msg, opts),
    );
    deps.queue = queue;
    // Act
    queue.track(executeRun(deps, w.msg, opts));
    await queue.drain();
    // Assess
    expect(dead).toBe(true);
    expect(runOf(w)).toMatchObject({ status: 'completed', summary: { attempt_count: 200, passed_count: 200 } });
    expect([...(w.deps.runs.attempts.get(RUN_ID)?.keys() ?? [])].sort((a, b) => a - b)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    expect(queue.sent.some((s) => s.delaySeconds >= 2)).toBe(true); // a sweep came back for the dead part's claims
    expect(w.deps.events.logical()).toEqual([`run.completed:${RUN_ID}`]);
  }, 30_000);

  it('hands attempts on through the queue instead of cutting them at the deadline', async () => {
    // Prepare: deliveries of 1 s, attempts of 100 ms that may take 300 ms
    const agent = slowAgent(100);
    const { w, deps } = fannedWorld(longCampaign(4, { timeout_ms: 300 }), agent);
    const opts: ExecuteOptions<ExecutorDeps> = { deadlineMs: 1000, claimLeaseMs: 1000 };
    const queue: DeliveringQueue = new DeliveringQueue((msg) => executeRun(deps, msg, opts));
    deps.queue = queue;
    // Act
    queue.track(executeRun(deps, w.msg, opts));
    await queue.drain();
    // Assess: 40 attempts of 100 ms, 4 at a time, need 1 s of agent time and more deliveries than one
    const attempts = [...(w.deps.runs.attempts.get(RUN_ID)?.values() ?? [])];
    expect(runOf(w)).toMatchObject({ status: 'completed', summary: { attempt_count: 40, passed_count: 40 } });
    expect(attempts.filter((a) => a.error_code !== null)).toEqual([]);
    expect(w.deps.runs.putCalls).toBe(40);
    expect(queue.sent.length).toBeGreaterThan(0);
  }, 30_000);

  it('sends the rest back delayed when the limits ask for a wait past 30 s, instead of sleeping', async () => {
    // Prepare: 2 requests a minute, 6 attempts
    const agent = slowAgent(10);
    const { w, deps } = fannedWorld(longCampaign(1, { limits: { requests_per_minute: 2 } }), agent);
    w.deps.campaigns.campaigns.set(w.deps.runs.runs.get(RUN_ID)!.campaign_id, {
      ...longCampaign(1, { limits: { requests_per_minute: 2 } }),
      mutations: longCampaign(1, {}).mutations.slice(0, 5),
    });
    const queue = new DeliveringQueue(async () => undefined, true);
    deps.queue = queue;
    // Act
    const started = Date.now();
    const run = await executeRun(deps, w.msg, { deadlineMs: 60_000, claimLeaseMs: 1000 });
    // Assess
    expect(Date.now() - started).toBeLessThan(5000);
    expect(run).toMatchObject({ status: 'running' });
    expect(w.deps.runs.putCalls).toBe(2);
    expect(agent.requests).toBe(2);
    expect(queue.sent).toHaveLength(1);
    expect(queue.sent[0].msg).toMatchObject({ run_id: RUN_ID, part: 1 });
    expect(queue.sent[0].delaySeconds).toBeGreaterThan(30);
    expect(queue.sent[0].delaySeconds).toBeLessThanOrEqual(61);
  }, 30_000);
});
