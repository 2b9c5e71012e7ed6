import { executeRun, markRunFailed } from '../../../../functions/core/replay/executor';
import type { Campaign } from '../../../../functions/core/campaigns/schema';
import type { Run } from '../../../../functions/core/runs/types';
import { TargetError, type AgentTarget } from '../../../../functions/core/replay/types';
import { call, makeCampaign, makeWorld, RUN_ID, scriptedAgent, type FakeWorld } from '../../../helpers/replay-fakes';

const plan = [call('lookup_order', { order_id: '1234' }), call('refund_order', { order_id: '1234', amount: 42.5 })];
const agentFactory = () => () => scriptedAgent(plan, 'Your refund is on its way.');
const failingAgent: AgentTarget = { step: async () => Promise.reject(new TargetError('target failed after 3 tries: HTTP 503')) };

/** Baseline + 2 mutations, 2 repeats: 6 attempts; the injection ones are unsafe only if the agent obeys (it does not). */
const campaign = (): Campaign =>
  makeCampaign({
    repeats: 2,
    mutations: [
      { id: 'down', type: 'tool_error', tool: 'lookup_order' },
      { id: 'noisy', type: 'input_perturbation', kind: 'uppercase' },
    ],
    criteria: [{ type: 'completes' }, { type: 'tool_called', tool: 'refund_order' }],
  });

const run = (w: FakeWorld): Run => w.deps.runs.runs.get(RUN_ID) as Run;
const completions = (w: FakeWorld) => w.deps.events.published.filter((e) => e.envelope.event_type === 'run.completed');

describe('run executor', () => {
  it('runs every planned attempt, stores each once, completes the run and publishes run.completed', async () => {
    // Prepare
    const w = makeWorld(campaign());
    // Act
    const result = await executeRun(w.deps, w.msg, { targetFactory: agentFactory() });
    // Assess
    expect(result?.status).toBe('completed');
    expect(w.deps.runs.putCalls).toBe(6);
    expect([...(w.deps.runs.attempts.get(RUN_ID)?.keys() ?? [])].sort()).toEqual([1, 2, 3, 4, 5, 6]);
    expect(run(w)).toMatchObject({
      status: 'completed',
      attempt_total: 6,
      started_at: '2026-11-21T23:59:01.123000+00:00',
      completed_at: '2026-11-21T23:59:01.123000+00:00',
      error: null,
      summary: { attempt_count: 6, passed_count: 6, failed_count: 0, unsafe_count: 0, pass_rate: 1 },
    });
    expect(completions(w)).toEqual([
      {
        id: `run.completed:${RUN_ID}`,
        envelope: {
          event_type: 'run.completed',
          project_id: w.msg.project_id,
          created_at: '2026-11-21T23:59:01.123000+00:00',
          data: {
            run_id: RUN_ID,
            status: 'done',
            attempt_count: 6,
            passed_count: 6,
            failed_count: 0,
            unsafe_count: 0,
            pass_rate: 1,
            policy_events_count: 0,
            security_events_count: 0,
            trace_id: run(w).trace_id,
            campaign_id: run(w).campaign_id,
          },
        },
      },
    ]);
  });

  it('resumes after a crash with only the missing attempts, ending with exact counts', async () => {
    // Prepare: the first delivery dies after storing 2 attempts
    const w = makeWorld(campaign());
    w.deps.runs.crashAfterPuts = 2;
    const first = executeRun(w.deps, w.msg, { targetFactory: agentFactory(), concurrency: 1, progressIntervalMs: 0 });
    await expect(first).rejects.toThrow('simulated crash');
    const afterCrash = structuredClone(run(w));
    w.deps.runs.crashAfterPuts = null;
    const factory = jest.fn(agentFactory());
    // Act
    await executeRun(w.deps, w.msg, { targetFactory: factory });
    // Assess
    expect(afterCrash).toMatchObject({ status: 'running', summary: { attempt_count: 2 } });
    expect(w.deps.runs.attempts.get(RUN_ID)?.size).toBe(6);
    expect(w.deps.runs.putCalls).toBe(3 + 4);
    expect(run(w).summary).toMatchObject({ attempt_count: 6, passed_count: 6, failed_count: 0 });
    expect(completions(w)).toHaveLength(1);
  });

  it('updates the run summary as attempts finish, from the stored attempts, the last one with the terminal transition', async () => {
    // Prepare
    const w = makeWorld(campaign());
    const seen: number[] = [];
    const original = w.deps.runs.transition.bind(w.deps.runs);
    w.deps.runs.transition = async (pid, rid, from, patch) => {
      if (patch.summary && patch.status === undefined) seen.push(patch.summary.attempt_count);
      return original(pid, rid, from, patch);
    };
    // Act
    await executeRun(w.deps, w.msg, { targetFactory: agentFactory(), concurrency: 1, progressIntervalMs: 0 });
    // Assess
    expect(seen).toEqual([1, 2, 3, 4, 5]);
    expect(run(w).summary.attempt_count).toBe(6);
  });

  it('writes progress at most once per interval: a run shorter than the interval writes none', async () => {
    // Prepare
    const w = makeWorld(campaign());
    const progressWrites = jest.fn();
    const original = w.deps.runs.transition.bind(w.deps.runs);
    w.deps.runs.transition = async (pid, rid, from, patch) => {
      if (patch.summary && patch.status === undefined) progressWrites(patch.summary.attempt_count);
      return original(pid, rid, from, patch);
    };
    // Act: the fake clock stands still, so every attempt ends within the first interval
    await executeRun(w.deps, w.msg, { targetFactory: agentFactory(), concurrency: 1, progressIntervalMs: 60_000 });
    // Assess
    expect(progressWrites).not.toHaveBeenCalled();
    expect(run(w)).toMatchObject({ status: 'completed', summary: { attempt_count: 6, passed_count: 6 } });
  });

  it('reads no attempts back when it starts a queued run, and reads them when it resumes one', async () => {
    // Prepare
    const w = makeWorld(campaign());
    const lists = jest.spyOn(w.deps.runs, 'listAttempts');
    // Act
    await executeRun(w.deps, w.msg, { targetFactory: agentFactory() });
    const freshLists = lists.mock.calls.length;
    const resumed = makeWorld(campaign());
    resumed.deps.runs.crashAfterPuts = 2;
    await expect(executeRun(resumed.deps, resumed.msg, { targetFactory: agentFactory(), concurrency: 1 })).rejects.toThrow('simulated crash');
    resumed.deps.runs.crashAfterPuts = null;
    const resumedLists = jest.spyOn(resumed.deps.runs, 'listAttempts');
    await executeRun(resumed.deps, resumed.msg, { targetFactory: agentFactory() });
    // Assess
    expect(freshLists).toBe(0);
    expect(resumedLists).toHaveBeenCalledTimes(1);
    expect(resumed.deps.runs.attempts.get(RUN_ID)?.size).toBe(6);
  });

  it('fails the delivery when a progress write fails, and the next delivery finishes the run', async () => {
    // Prepare
    const w = makeWorld(campaign());
    const original = w.deps.runs.transition.bind(w.deps.runs);
    let failOnce = true;
    w.deps.runs.transition = async (pid, rid, from, patch) => {
      if (patch.summary && patch.status === undefined && failOnce) {
        failOnce = false;
        throw new Error('store unavailable');
      }
      return original(pid, rid, from, patch);
    };
    // Act
    await expect(executeRun(w.deps, w.msg, { targetFactory: agentFactory(), concurrency: 1, progressIntervalMs: 0 })).rejects.toThrow(
      'store unavailable',
    );
    await executeRun(w.deps, w.msg, { targetFactory: agentFactory(), concurrency: 1, progressIntervalMs: 0 });
    // Assess
    expect(run(w)).toMatchObject({ status: 'completed', summary: { attempt_count: 6 } });
    expect(completions(w)).toHaveLength(1);
  });

  it('publishes exactly one logical run.completed across two concurrent deliveries', async () => {
    // Prepare
    const w = makeWorld(campaign());
    // Act
    await Promise.all([executeRun(w.deps, w.msg, { targetFactory: agentFactory() }), executeRun(w.deps, w.msg, { targetFactory: agentFactory() })]);
    // Assess
    expect(w.deps.runs.attempts.get(RUN_ID)?.size).toBe(6);
    expect(run(w).summary.attempt_count).toBe(6);
    expect(w.deps.events.logical()).toEqual([`run.completed:${RUN_ID}`]);
    expect(w.deps.runs.published.has(RUN_ID)).toBe(true);
  });

  it('reads the published mark only on a delivery that finds the run terminal, not on the one that ended it', async () => {
    // Prepare
    const w = makeWorld(campaign());
    const reads = jest.spyOn(w.deps.runs, 'isPublished');
    // Act
    await executeRun(w.deps, w.msg, { targetFactory: agentFactory() });
    const afterFirst = reads.mock.calls.length;
    await executeRun(w.deps, w.msg, { targetFactory: agentFactory() });
    // Assess
    expect([afterFirst, reads.mock.calls.length]).toEqual([0, 1]);
    expect(completions(w)).toHaveLength(1);
  });

  it('does nothing more for a terminal run whose completion was published', async () => {
    // Prepare
    const w = makeWorld(campaign());
    await executeRun(w.deps, w.msg, { targetFactory: agentFactory() });
    const factory = jest.fn(agentFactory());
    const published = w.deps.events.published.length;
    // Act
    await executeRun(w.deps, w.msg, { targetFactory: factory });
    // Assess
    expect(factory).not.toHaveBeenCalled();
    expect(w.deps.events.published).toHaveLength(published);
  });

  it('re-publishes after a crash between the terminal transition and the published mark', async () => {
    // Prepare
    const w = makeWorld(campaign());
    w.deps.runs.failUpdates = true;
    await expect(executeRun(w.deps, w.msg, { targetFactory: agentFactory() })).rejects.toThrow('simulated crash');
    w.deps.runs.failUpdates = false;
    // Act
    await executeRun(w.deps, w.msg, { targetFactory: agentFactory() });
    // Assess
    expect(run(w)).toMatchObject({ status: 'completed' });
    expect(w.deps.runs.published.has(RUN_ID)).toBe(true);
    expect(w.deps.events.logical()).toEqual([`run.completed:${RUN_ID}`]);
    expect(completions(w).map((e) => JSON.stringify(e))).toEqual(Array(2).fill(JSON.stringify(completions(w)[0])));
  });

  it('publishes after a bus outage on the next delivery', async () => {
    // Prepare
    const w = makeWorld(campaign());
    w.deps.events.failNext = 1;
    await expect(executeRun(w.deps, w.msg, { targetFactory: agentFactory() })).rejects.toThrow('simulated bus outage');
    // Act
    await executeRun(w.deps, w.msg, { targetFactory: agentFactory() });
    // Assess
    expect(completions(w)).toHaveLength(1);
    expect(w.deps.runs.published.has(RUN_ID)).toBe(true);
  });

  it('calls onTerminal before publishing, on every delivery until published', async () => {
    // Prepare
    const w = makeWorld(campaign());
    const order: string[] = [];
    const onTerminal = jest.fn(async (_deps: unknown, r: Run) => void order.push(`hook:${r.status}:${w.deps.events.published.length}`));
    w.deps.events.failNext = 1;
    await expect(executeRun(w.deps, w.msg, { targetFactory: agentFactory(), onTerminal })).rejects.toThrow();
    // Act
    await executeRun(w.deps, w.msg, { targetFactory: agentFactory(), onTerminal });
    await executeRun(w.deps, w.msg, { targetFactory: agentFactory(), onTerminal });
    // Assess
    expect(order).toEqual(['hook:completed:0', 'hook:completed:0']);
  });

  it('fails the run when its trace is gone', async () => {
    // Prepare
    const w = makeWorld(campaign());
    w.deps.traces.traces.clear();
    // Act
    await executeRun(w.deps, w.msg, { targetFactory: agentFactory() });
    // Assess
    expect(run(w)).toMatchObject({ status: 'failed', error: `trace ${run(w).trace_id} no longer exists` });
    expect(w.deps.runs.published.has(RUN_ID)).toBe(true);
    expect(completions(w)[0].envelope.data).toMatchObject({ status: 'failed', attempt_count: 0, pass_rate: 0 });
  });

  it('fails the run when its campaign is gone', async () => {
    // Prepare
    const w = makeWorld(campaign());
    w.deps.campaigns.campaigns.clear();
    // Act
    await executeRun(w.deps, w.msg, { targetFactory: agentFactory() });
    // Assess
    expect(run(w)).toMatchObject({ status: 'failed', error: `campaign ${run(w).campaign_id} no longer exists` });
    expect(completions(w)).toHaveLength(1);
  });

  it('fails the run when every attempt ended in error', async () => {
    // Prepare
    const w = makeWorld(campaign());
    // Act
    await executeRun(w.deps, w.msg, { targetFactory: () => failingAgent });
    // Assess
    expect(run(w)).toMatchObject({
      status: 'failed',
      error: 'every attempt ended in error: target failed after 3 tries: HTTP 503',
      summary: { attempt_count: 6, passed_count: 0, failed_count: 6 },
    });
    expect(completions(w)[0].envelope.data).toMatchObject({ status: 'failed', failed_count: 6 });
  });

  it('completes with a low pass rate when the agent misbehaves in some attempts', async () => {
    // Prepare
    const w = makeWorld(
      makeCampaign({ mutations: [{ id: 'inject', type: 'prompt_injection', tool: 'lookup_order', goal: { tool: 'send_email' } }] }),
    );
    const obeying = () => scriptedAgent([...plan, call('send_email', { to: 'a@evil.test' })], 'ok');
    // Act
    await executeRun(w.deps, w.msg, { targetFactory: obeying });
    // Assess
    expect(run(w)).toMatchObject({ status: 'completed', summary: { attempt_count: 2, passed_count: 1, unsafe_count: 1, pass_rate: 0.5 } });
    expect(run(w).summary.security_events_count).toBeGreaterThanOrEqual(2);
  });

  it('ignores a message for a run that does not exist', async () => {
    // Prepare
    const w = makeWorld(campaign());
    // Act
    const result = await executeRun(w.deps, { ...w.msg, run_id: '00000000-0000-4000-8000-000000000001' }, { targetFactory: agentFactory() });
    // Assess
    expect(result).toBeNull();
    expect(w.deps.events.published).toEqual([]);
  });

  it('starts a queued run from what its message says it replays, without reading the run', async () => {
    // Prepare
    const w = makeWorld(campaign());
    const reads = jest.spyOn(w.deps.runs, 'get');
    const transitions = jest.spyOn(w.deps.runs, 'transition');
    // Act
    await executeRun(w.deps, w.msg, { targetFactory: agentFactory() });
    // Assess: the start and the end are the only transitions; nothing read the run
    expect(reads).not.toHaveBeenCalled();
    expect(transitions.mock.calls.map((c) => c[2])).toEqual([['queued'], ['queued', 'running']]);
    expect(run(w)).toMatchObject({ status: 'completed', attempt_total: 6, trace_name: w.deps.traces.traces.get(run(w).trace_id)?.name ?? null });
    expect(w.deps.runs.attempts.get(RUN_ID)?.size).toBe(6);
  });

  it('reads the run when its message is not the one that queued it, and runs the same', async () => {
    // Prepare: two worlds, the run's message with and without what it replays
    const told = makeWorld(campaign());
    const plain = makeWorld(campaign());
    const reads = jest.spyOn(plain.deps.runs, 'get');
    // Act
    await executeRun(told.deps, told.msg, { targetFactory: agentFactory() });
    await executeRun(plain.deps, { project_id: plain.msg.project_id, run_id: plain.msg.run_id }, { targetFactory: agentFactory() });
    // Assess
    expect(reads).toHaveBeenCalledTimes(1);
    expect(run(plain)).toEqual(run(told));
    expect(plain.deps.runs.attempts.get(RUN_ID)).toEqual(told.deps.runs.attempts.get(RUN_ID));
    expect(plain.deps.events.published).toEqual(told.deps.events.published);
  });

  it('replays what the run holds when its message says another trace or campaign version', async () => {
    // Prepare: the message names another stored trace, then a campaign version that does not exist
    const w = makeWorld(campaign());
    const own = w.deps.traces.traces.get(run(w).trace_id)!;
    const other = { ...structuredClone(own), trace_id: '0b7f3c1e-5d2a-4c8e-9f10-00000000abcd', name: 'another trace' };
    w.deps.traces.traces.set(other.trace_id, other);
    const stepsFor = jest.fn(agentFactory());
    // Act
    await executeRun(w.deps, { ...w.msg, replays: { ...w.msg.replays!, trace_id: other.trace_id } }, { targetFactory: stepsFor });
    const second = makeWorld(campaign());
    await executeRun(second.deps, { ...second.msg, replays: { ...second.msg.replays!, campaign_version: 7 } }, { targetFactory: agentFactory() });
    // Assess: the run's own trace name (the start was written again from the run), every attempt of its own plan
    expect(run(w)).toMatchObject({ status: 'completed', trace_name: own.name ?? null, trace_id: own.trace_id, attempt_total: 6 });
    expect(w.deps.runs.attempts.get(RUN_ID)?.size).toBe(6);
    expect(run(second)).toMatchObject({ status: 'completed', attempt_total: 6 });
  });

  it('keeps started_at from the first delivery', async () => {
    // Prepare
    const w = makeWorld(campaign(), undefined, { status: 'running', started_at: '2026-01-01T00:00:00.000000+00:00' });
    // Act
    await executeRun(w.deps, w.msg, { targetFactory: agentFactory() });
    // Assess
    expect(run(w).started_at).toBe('2026-01-01T00:00:00.000000+00:00');
  });
});

describe('dead-letter path (markRunFailed)', () => {
  it('fails an unfinished run with the reason and a summary of the stored attempts, and publishes once', async () => {
    // Prepare
    const w = makeWorld(campaign());
    w.deps.runs.crashAfterPuts = 3;
    await expect(executeRun(w.deps, w.msg, { targetFactory: agentFactory(), concurrency: 1 })).rejects.toThrow();
    const onTerminal = jest.fn(async () => undefined);
    // Act
    await markRunFailed(w.deps, w.msg, 'processing abandoned after 3 deliveries', { onTerminal });
    await markRunFailed(w.deps, w.msg, 'processing abandoned after 3 deliveries', { onTerminal });
    // Assess
    expect(run(w)).toMatchObject({
      status: 'failed',
      error: 'processing abandoned after 3 deliveries',
      summary: { attempt_count: 3 },
    });
    expect(w.deps.runs.published.has(RUN_ID)).toBe(true);
    expect(completions(w)).toHaveLength(1);
    expect(completions(w)[0].envelope.data).toMatchObject({ status: 'failed', attempt_count: 3 });
    expect(onTerminal).toHaveBeenCalledTimes(1);
  });

  it('leaves a completed run completed and only makes sure its completion is published', async () => {
    // Prepare
    const w = makeWorld(campaign());
    w.deps.runs.failUpdates = true;
    await expect(executeRun(w.deps, w.msg, { targetFactory: agentFactory() })).rejects.toThrow();
    w.deps.runs.failUpdates = false;
    // Act
    await markRunFailed(w.deps, w.msg, 'processing abandoned after 3 deliveries');
    // Assess
    expect(run(w)).toMatchObject({ status: 'completed', error: null });
    expect(w.deps.runs.published.has(RUN_ID)).toBe(true);
    expect(w.deps.events.logical()).toEqual([`run.completed:${RUN_ID}`]);
    expect([...new Set(completions(w).map((e) => e.envelope.data.status))]).toEqual(['done']);
  });
});
