// In-memory fakes and builders for replay engine tests: repos with failure injection, a fixed clock, scripted agents.
import { readFileSync } from 'node:fs';
import type { SQSRecord } from 'aws-lambda';
import { join } from 'node:path';
import { campaignInputSchema, type Campaign, type CampaignInput } from '../../functions/core/campaigns/schema';
import type { BusEvent } from '../../functions/core/events';
import type { Clock } from '../../functions/core/time';
import { traceInputSchema, type Trace } from '../../functions/core/traces/schema';
import type { AttemptRecord, Run, RunStatus } from '../../functions/core/runs/types';
import { EMPTY_SUMMARY } from '../../functions/core/runs/types';
import type { CampaignsRepo, EventPublisher, HttpSender, LeasesRepo, ReplayMessage, RunsRepo, TracesRepo } from '../../functions/core/ports';
import type { ExecutorDeps } from '../../functions/core/replay/executor';
import { compileRun } from '../../functions/core/replay/compile';
import { runAttempt } from '../../functions/core/replay/attempt';
import { planAttempts } from '../../functions/core/replay/plan';
import type { AgentTarget, AgentToolCall, AgentTurn, ChatMessage, StepRequest } from '../../functions/core/replay/types';

export const PROJECT_ID = '9a1b2c3d-4e5f-4a6b-8c7d-0e1f2a3b4c5d';
export const RUN_ID = '3f2e1d0c-9b8a-4c7d-8e6f-5a4b3c2d1e0f';
export const CAMPAIGN_ID = '7d6c5b4a-3e2f-4a1b-9c0d-8e7f6a5b4c3d';
export const FIXED_ISO = '2026-11-21T23:59:01.123Z';

/** A clock that never moves: records built with it are byte-identical. */
export const fixedClock: Clock = { now: () => new Date(FIXED_ISO) };

/** Loads a trace fixture from test/fixtures/replay and stores it the way the service does. */
export function loadTrace(name: string): Trace {
  const raw: unknown = JSON.parse(readFileSync(join(__dirname, '../fixtures/replay', `${name}.json`), 'utf8'));
  const input = traceInputSchema.parse(raw);
  return {
    trace_id: input.trace_id ?? '00000000-0000-4000-8000-000000000000',
    name: input.name ?? 'trace',
    agent: input.agent,
    model: input.model,
    tools: input.tools ?? [],
    steps: input.steps,
    metadata: input.metadata ?? {},
    tags: input.tags ?? [],
    created_at: '2026-11-21T00:00:00.000000+00:00',
    step_count: input.steps.length,
    tool_call_count: input.steps.reduce((n, s) => n + (s.role === 'assistant' ? (s.tool_calls?.length ?? 0) : 0), 0),
    size_bytes: 1,
  };
}

/** A validated campaign (defaults applied) with an http target unless told otherwise. */
export function makeCampaign(input: Partial<Record<keyof CampaignInput, unknown>> = {}): Campaign {
  const parsed = campaignInputSchema.parse({ name: 'test', target: { type: 'http', url: 'https://agent.example.com/step' }, ...input });
  return {
    ...parsed,
    campaign_id: CAMPAIGN_ID,
    created_at: '2026-11-21T00:00:00.000000+00:00',
    version: 1,
    eval_set: { trace_count: 0, min_scenarios: 0 },
  };
}

/** An agent that makes the given tool calls, one step each (an array = several calls in one step), then answers `final`. */
type PlannedCall = AgentToolCall | Omit<AgentToolCall, 'id'>;
export function scriptedAgent(plan: Array<PlannedCall | PlannedCall[]>, final = 'done'): AgentTarget & { requests: StepRequest[] } {
  const requests: StepRequest[] = [];
  return {
    requests,
    async step(req) {
      requests.push({ ...req, messages: [...req.messages] });
      const next = plan[req.step - 1];
      if (next === undefined) return { output: final };
      const calls = (Array.isArray(next) ? next : [next]).map((c, i) => ({
        id: 'id' in c ? c.id : `c${req.step}_${i}`,
        name: c.name,
        arguments: c.arguments,
      }));
      return { tool_calls: calls };
    },
  };
}

/** An agent driven by a function of the conversation so far (e.g. one that obeys injected text). */
export function reactiveAgent(fn: (messages: readonly ChatMessage[], step: number) => AgentTurn): AgentTarget {
  return { step: async (req) => fn(req.messages, req.step) };
}

export const call = (name: string, args: Record<string, unknown> = {}): Omit<AgentToolCall, 'id'> => ({ name, arguments: args });

/** Runs one attempt of the campaign (the plan entry of `mutationId`, or the baseline) against an agent. */
export async function runOne(trace: Trace, campaign: Campaign, agent: AgentTarget, mutationId: string | null = null): Promise<AttemptRecord> {
  const planned = planAttempts(campaign).find((p) => p.mutation_id === mutationId);
  if (!planned) throw new Error(`no planned attempt for ${mutationId}`);
  return runAttempt(compileRun({ run_id: RUN_ID, trace, campaign }), planned, agent, fixedClock);
}

export function makeRun(overrides: Partial<Run> = {}): Run {
  return {
    run_id: RUN_ID,
    project_id: PROJECT_ID,
    trace_id: '0b7f3c1e-5d2a-4c8e-9f10-2a3b4c5d6e7f',
    campaign_id: CAMPAIGN_ID,
    source: 'replay',
    status: 'queued',
    created_at: '2026-11-21T00:00:00.000000+00:00',
    started_at: null,
    completed_at: null,
    summary: { ...EMPTY_SUMMARY },
    error: null,
    ci_batch_id: null,
    pack_id: null,
    ci: null,
    attempt_total: null,
    ...overrides,
  };
}

const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;
const notUsed = (): never => {
  throw new Error('not used by the replay executor');
};

/** Runs repo in memory, with the conditional semantics of the DynamoDB one and knobs to simulate crashes. */
export class MemoryRunsRepo implements RunsRepo {
  readonly runs = new Map<string, Run>();
  readonly attempts = new Map<string, Map<number, AttemptRecord>>();
  putCalls = 0;
  /** putAttempt throws once this many attempts have been stored by this repo (simulated crash), when set. */
  crashAfterPuts: number | null = null;
  /** update() and markPublished() throw while true (simulated crash between transition and the published mark). */
  failUpdates = false;
  /** Runs whose completion is marked published. */
  readonly published = new Set<string>();

  async create(run: Run): Promise<void> {
    this.runs.set(run.run_id, clone(run));
  }
  createMany = notUsed;
  list = notUsed;
  listPolicyEvents = notUsed;
  listSecurityEvents = notUsed;
  listAttemptPage = notUsed;
  getAttempt = notUsed;
  putPack = notUsed;
  getPack = notUsed;

  async get(_projectId: string, runId: string): Promise<Run | null> {
    const run = this.runs.get(runId);
    return run ? clone(run) : null;
  }
  async transition(_projectId: string, runId: string, from: RunStatus[], patch: Partial<Run>): Promise<Run | null> {
    const run = this.runs.get(runId);
    if (!run || !from.includes(run.status)) return null;
    Object.assign(run, clone(patch));
    return clone(run);
  }
  async update(_projectId: string, runId: string, patch: Partial<Run>): Promise<void> {
    if (this.failUpdates) throw new Error('simulated crash before update');
    const run = this.runs.get(runId);
    if (run) Object.assign(run, clone(patch));
  }
  async markPublished(_projectId: string, runId: string): Promise<void> {
    if (this.failUpdates) throw new Error('simulated crash before the published mark');
    this.published.add(runId);
  }
  async isPublished(_projectId: string, runId: string): Promise<boolean> {
    return this.published.has(runId);
  }
  async putAttempt(_projectId: string, attempt: AttemptRecord): Promise<boolean> {
    this.putCalls += 1;
    let stored = this.attempts.get(attempt.run_id);
    if (!stored) this.attempts.set(attempt.run_id, (stored = new Map()));
    if (this.crashAfterPuts !== null && stored.size >= this.crashAfterPuts) throw new Error('simulated crash in putAttempt');
    if (stored.has(attempt.attempt)) return false;
    stored.set(attempt.attempt, clone(attempt));
    return true;
  }
  async listAttempts(_projectId: string, runId: string): Promise<AttemptRecord[]> {
    return [...(this.attempts.get(runId)?.values() ?? [])].sort((a, b) => a.attempt - b.attempt).map((element) => clone(element));
  }
}

/** Expiring slot leases in memory, with the conditions of the DynamoDB repo (a take: free, expired or the holder's). */
export class MemoryLeasesRepo implements LeasesRepo {
  readonly slots = new Map<string, { holder: string; until: number }>();
  takes = 0;
  async acquire(projectId: string, scope: string, slots: number, holder: string, now: number, until: number): Promise<number | null> {
    for (let n = 0; n < slots; n++) if (await this.take(projectId, scope, n, holder, now, until)) return n;
    return null;
  }
  async take(projectId: string, scope: string, slot: number, holder: string, now: number, until: number): Promise<boolean> {
    this.takes += 1;
    const k = `${projectId}/${scope}/${slot}`;
    const held = this.slots.get(k);
    if (held && held.until >= now && held.holder !== holder) return false;
    this.slots.set(k, { holder, until });
    return true;
  }
  async release(projectId: string, scope: string, slot: number, holder: string): Promise<void> {
    const k = `${projectId}/${scope}/${slot}`;
    if (this.slots.get(k)?.holder === holder) this.slots.delete(k);
  }
}

export class MemoryTracesRepo implements TracesRepo {
  readonly traces = new Map<string, Trace>();
  putIfAbsent = notUsed;
  getOtlpState = notUsed;
  storedIds = notUsed;
  putOtlpState = notUsed;
  getSummary = notUsed;
  existing = notUsed;
  list = notUsed;
  async get(_projectId: string, traceId: string): Promise<Trace | null> {
    return this.traces.get(traceId) ?? null;
  }
}

export class MemoryCampaignsRepo implements CampaignsRepo {
  readonly campaigns = new Map<string, Campaign>();
  /** Past versions, by `<campaign id>/<version>`. */
  readonly versions = new Map<string, Campaign>();
  put = notUsed;
  list = notUsed;
  getEvalSet = notUsed;
  updateEvalSet = notUsed;
  update = notUsed;
  listVersions = notUsed;
  async get(_projectId: string, campaignId: string, opts: { version?: number } = {}): Promise<Campaign | null> {
    const current = this.campaigns.get(campaignId) ?? null;
    if (opts.version === undefined || current?.version === opts.version) return current;
    return this.versions.get(`${campaignId}/${opts.version}`) ?? null;
  }
}

export class MemoryEvents implements EventPublisher {
  readonly published: BusEvent[] = [];
  failNext = 0;
  async publish(events: BusEvent[]): Promise<void> {
    if (this.failNext > 0) {
      this.failNext -= 1;
      throw new Error('simulated bus outage');
    }
    this.published.push(...clone(events));
  }
  /** Distinct bus ids: what subscribers see after deduplication. */
  logical(): string[] {
    return [...new Set(this.published.map((e) => e.id))];
  }
}

export interface FakeWorld {
  deps: ExecutorDeps & { runs: MemoryRunsRepo; traces: MemoryTracesRepo; campaigns: MemoryCampaignsRepo; events: MemoryEvents };
  msg: ReplayMessage;
}

const noNetwork: HttpSender = async () => {
  throw new Error('no network in unit tests');
};

/** A run stored with its trace and campaign, ready for executeRun. */
export function makeWorld(campaign: Campaign, trace: Trace = loadTrace('refund-trace'), run: Partial<Run> = {}): FakeWorld {
  const runs = new MemoryRunsRepo();
  const traces = new MemoryTracesRepo();
  const campaigns = new MemoryCampaignsRepo();
  const events = new MemoryEvents();
  traces.traces.set(trace.trace_id, trace);
  campaigns.campaigns.set(campaign.campaign_id, campaign);
  const stored = makeRun({ trace_id: trace.trace_id, campaign_id: campaign.campaign_id, ...run });
  runs.runs.set(RUN_ID, stored);
  // The message that queued the run, as the service sends it: it says what the run replays.
  const replays = { trace_id: stored.trace_id, campaign_id: stored.campaign_id, campaign_version: stored.campaign_version ?? 1 };
  return { deps: { runs, traces, campaigns, events, clock: fixedClock, http: noNetwork }, msg: { project_id: PROJECT_ID, run_id: RUN_ID, replays } };
}

/** One SQS record carrying `body`, as the replay queue (or its dead-letter queue) delivers it to a worker. */
export const sqsRecord = (messageId: string, body: string): SQSRecord => ({
  messageId,
  receiptHandle: messageId,
  body,
  attributes: { ApproximateReceiveCount: '1', SentTimestamp: '0', SenderId: 'x', ApproximateFirstReceiveTimestamp: '0' },
  messageAttributes: {},
  md5OfBody: '',
  eventSource: 'aws:sqs',
  eventSourceARN: 'arn:aws:sqs:local:000000000000:rts-replay',
  awsRegion: 'local',
});
