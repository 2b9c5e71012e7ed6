// The run deadline: attempts an agent never answers end at the deadline as `error` (run_deadline_exceeded), stored
// once each, and the run ends once with one run.completed; the worker derives the deadline from its remaining time.
import type { Context, SQSEvent } from 'aws-lambda';
import { executeRun } from '../../../../functions/core/replay/executor';
import { DEADLINE_MARGIN_MS, RUN_DEADLINE_EXCEEDED } from '../../../../functions/core/replay/deadline';
import type { AgentTarget } from '../../../../functions/core/replay/types';
import type { Run } from '../../../../functions/core/runs/types';
import type { OutboundRequest } from '../../../../functions/core/ports';
import { OutboundError } from '../../../../functions/core/ports';
import { makeCampaign, makeWorld, RUN_ID, sqsRecord, type FakeWorld } from '../../../helpers/replay-fakes';

let world: FakeWorld;
jest.mock('../../../../functions/wiring/deps', () => ({ getDeps: () => world.deps }));
jest.mock('../../../../functions/wiring/with-bus', () => ({}));
jest.mock('../../../../functions/wiring/with-http', () => ({}));
jest.mock('../../../../functions/wiring/with-queue', () => ({}));

// Imported after the mocks are declared (jest hoists jest.mock above imports).
import { handler as replayWorker } from '../../../../functions/workers/replay-worker';

/** Baseline + 2 mutations: 3 attempts. */
const campaign = (target: Record<string, unknown> = { type: 'http', url: 'https://agent.example.com/step' }) =>
  makeCampaign({
    target,
    mutations: [
      { id: 'down', type: 'tool_error', tool: 'lookup_order' },
      { id: 'noisy', type: 'input_perturbation', kind: 'uppercase' },
    ],
  });

/** An agent that never answers. */
const hanging: AgentTarget = { step: () => new Promise(() => undefined) };
/** Answers the baseline at once, never answers the other attempts. */
const hangsAfterBaseline: AgentTarget = { step: async (req) => (req.attempt === 1 ? { output: 'done' } : new Promise(() => undefined)) };

const run = (w: FakeWorld): Run => w.deps.runs.runs.get(RUN_ID) as Run;
const completions = (w: FakeWorld) => w.deps.events.published.filter((e) => e.envelope.event_type === 'run.completed');

describe('run deadline', () => {
  it('ends attempts an agent never answers at the deadline as errors, stored once, and fails the run once', async () => {
    // Prepare
    world = makeWorld(campaign());
    const started = Date.now();
    // Act
    const result = await executeRun(world.deps, world.msg, { targetFactory: () => hanging, deadlineMs: 300 });
    // Assess
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(result?.status).toBe('failed');
    expect(world.deps.runs.putCalls).toBe(3);
    const attempts = [...world.deps.runs.attempts.get(RUN_ID)!.values()];
    expect(attempts.map((a) => [a.attempt, a.status, a.error_code])).toEqual([
      [1, 'error', RUN_DEADLINE_EXCEEDED],
      [2, 'error', RUN_DEADLINE_EXCEEDED],
      [3, 'error', RUN_DEADLINE_EXCEEDED],
    ]);
    expect(attempts[0].error).toBe('run deadline of 300 ms exceeded');
    expect(run(world)).toMatchObject({
      status: 'failed',
      error: 'every attempt ended in error: run deadline of 300 ms exceeded',
      summary: { attempt_count: 3, passed_count: 0, failed_count: 3 },
    });
    expect(world.deps.runs.published.has(RUN_ID)).toBe(true);
    expect(completions(world)).toHaveLength(1);
  });

  it('keeps the attempts that ended before the deadline and completes the run with the rest as errors', async () => {
    // Prepare
    world = makeWorld(campaign());
    // Act
    const result = await executeRun(world.deps, world.msg, { targetFactory: () => hangsAfterBaseline, deadlineMs: 300 });
    // Assess
    expect(result?.status).toBe('completed');
    const attempts = [...world.deps.runs.attempts.get(RUN_ID)!.values()].sort((a, b) => a.attempt - b.attempt);
    expect(attempts.map((a) => [a.attempt, a.status, a.error_code ?? null])).toEqual([
      [1, 'passed', null],
      [2, 'error', RUN_DEADLINE_EXCEEDED],
      [3, 'error', RUN_DEADLINE_EXCEEDED],
    ]);
    expect(run(world).summary).toMatchObject({ attempt_count: 3, passed_count: 1, failed_count: 2 });
    expect(completions(world)).toHaveLength(1);
    // A redelivery of the same message finds the run terminal and published: nothing is stored or sent again.
    await executeRun(world.deps, world.msg, { targetFactory: () => hangsAfterBaseline, deadlineMs: 300 });
    expect(world.deps.runs.putCalls).toBe(3);
    expect(completions(world)).toHaveLength(1);
  });

  it('never lets a request to the agent outlive the deadline, whatever the target timeout', async () => {
    // Prepare: an http target with a 5-minute timeout, in front of a sender that answers only at the request's timeout.
    world = makeWorld(campaign({ type: 'http', url: 'https://agent.example.com/step', timeout_ms: 300_000 }));
    const timeouts: number[] = [];
    world.deps.http = (req: OutboundRequest) => {
      timeouts.push(req.timeoutMs);
      return new Promise((_, reject) => setTimeout(() => reject(new OutboundError('timeout', `timeout after ${req.timeoutMs} ms`)), req.timeoutMs));
    };
    // Act
    const result = await executeRun(world.deps, world.msg, { deadlineMs: 400, sleep: async () => undefined });
    // Assess
    expect(result?.status).toBe('failed');
    expect(timeouts.length).toBeGreaterThanOrEqual(3);
    expect(Math.max(...timeouts)).toBeLessThanOrEqual(400);
  });
});

describe('replay worker deadline', () => {
  it('ends a run against an agent that never answers at its remaining time less the margin', async () => {
    // Prepare: an invocation with the margin plus 500 ms left, an http agent whose requests never end.
    world = makeWorld(campaign({ type: 'http', url: 'https://agent.example.com/step', timeout_ms: 300_000 }));
    world.deps.http = () => new Promise(() => undefined);
    const context = { getRemainingTimeInMillis: () => DEADLINE_MARGIN_MS + 500 } as Context;
    const event: SQSEvent = { Records: [sqsRecord('m1', JSON.stringify(world.msg))] };
    const started = Date.now();
    // Act
    const res = await replayWorker(event, context);
    // Assess
    expect(res).toEqual({ batchItemFailures: [] });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(run(world)).toMatchObject({ status: 'failed', summary: { attempt_count: 3 } });
    expect([...world.deps.runs.attempts.get(RUN_ID)!.values()].map((a) => a.error_code)).toEqual(Array(3).fill(RUN_DEADLINE_EXCEEDED));
    expect(completions(world)).toHaveLength(1);
  });
});
