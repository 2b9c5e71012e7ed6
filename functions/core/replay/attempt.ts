// One attempt: the agent loop (SPEC 7.2-7.5) driving a target, serving tool calls under policies, mutations and detectors.
import type { PolicyEvent, SecurityEvent, AttemptRecord, TranscriptEntry } from '../runs/types';
import { isoMicros, type Clock } from '../time';
import type { CompiledRun } from './compile';
import { DEFAULT_CRITERIA, evaluateCriteria } from './criteria';
import { SecurityMonitor, type SecurityFinding } from './detectors/monitor';
import { globMatcher } from './glob';
import { uuidSeries } from './hash';
import { mutateResult, type ToolMutation } from './mutations/tool-result';
import { firstDenial, PolicyState, type PolicyDecision } from './policies/evaluate';
import { callKey, RecordingCursor, type ServedResult } from './recording';
import { canonical } from './values';
import { attemptStatus } from './scoring';
import { TargetError, type AgentTarget, type AgentToolCall, type ChatMessage, type PlannedAttempt } from './types';

export const MAX_STEPS_EXCEEDED = 'max_steps_exceeded';
export const UNRECORDED_POLICY_ID = 'unrecorded_tool_call';

/** Deterministic event ids: the same run, attempt, kind and sequence always give the same UUID-shaped id. */
export function eventIds(runId: string, attempt: number, kind: 'policy' | 'security'): (sequence: number) => string {
  return uuidSeries(`${runId}:${attempt}:${kind}`);
}

/** The event id of one event (eventIds for a whole series is cheaper). */
export function eventId(runId: string, attempt: number, kind: 'policy' | 'security', sequence: number): string {
  return eventIds(runId, attempt, kind)(sequence);
}

/**
 * Runs one planned attempt to its end and returns the record to store. Only a TargetError from the target is
 * turned into status `error`; anything else is a bug and propagates (the queue retries, then dead-letters).
 */
export async function runAttempt(run: CompiledRun, planned: PlannedAttempt, target: AgentTarget, clock: Clock): Promise<AttemptRecord> {
  const started = clock.now();
  const { campaign, runId } = run;
  const attempt = planned.attempt;
  const mutation = planned.mutation;
  const toolMutation: ToolMutation | null = mutation && mutation.type !== 'input_perturbation' ? mutation : null;
  const mutationMatches = toolMutation ? globMatcher(toolMutation.tool) : null;
  const material = run.material(mutation);
  const base = run.base(mutation);

  const messages: ChatMessage[] = base.messages.slice();
  const transcript: TranscriptEntry[] = base.transcript.slice();
  const policyEvents: PolicyEvent[] = [];
  const securityEvents: SecurityEvent[] = [];
  const calls: AgentToolCall[] = [];
  const policies = new PolicyState(run.policies);
  const cursor = new RecordingCursor(run.recording);

  const policyId = eventIds(runId, attempt, 'policy');
  const securityId = eventIds(runId, attempt, 'security');
  // Events of one step share a clock reading more often than not: format each distinct instant once.
  let lastMs = NaN;
  let lastIso = '';
  const stamp = (): string => {
    const now = clock.now();
    if (now.getTime() !== lastMs) {
      lastMs = now.getTime();
      lastIso = isoMicros(now);
    }
    return lastIso;
  };

  let step = 0;
  const addPolicyEvent = (call: AgentToolCall, d: PolicyDecision): void => {
    const sequence = policyEvents.length + 1;
    policyEvents.push({
      event_id: policyId(sequence),
      run_id: runId,
      attempt,
      sequence,
      step,
      policy_id: d.policy_id,
      policy_type: d.policy_type,
      decision: d.decision,
      tool: call.name,
      arguments: call.arguments,
      reason: d.reason,
      created_at: stamp(),
    });
  };
  const monitor = new SecurityMonitor(
    {
      detectors: run.detectors,
      allowedDomains: run.allowedDomains,
      injection: material.injectionCanary && toolMutation?.type === 'prompt_injection' ? { canary: material.injectionCanary, goal: toolMutation.goal ?? {} } : null,
      baitCanary: material.baitCanary,
    },
    (f: SecurityFinding) => {
      const sequence = securityEvents.length + 1;
      securityEvents.push({
        event_id: securityId(sequence),
        run_id: runId,
        attempt,
        sequence,
        step: f.step,
        kind: f.kind,
        action: f.action,
        risk: f.risk,
        source: f.source,
        evidence: f.evidence,
        mutation_id: planned.mutation_id,
        created_at: stamp(),
      });
    },
  );

  let mutationHits = 0;
  let denied = false;
  let output: string | null = null;
  let endReason: string | null = null;
  let targetError: string | null = null;
  let steps = 0;

  /** Checks, serves, mutates and scans one tool call, then hands its result to the agent. */
  const serve = (call: AgentToolCall): void => {
    calls.push(call);
    const argsKey = canonical(call.arguments);
    const decisions = policies.check({ name: call.name, arguments: call.arguments, key: callKey(call.name, argsKey) });
    for (const d of decisions) addPolicyEvent(call, d);
    const denial = firstDenial(decisions);
    monitor.onToolCall(step, call, argsKey, denial !== undefined);

    let result: ServedResult;
    let served: 'recorded' | 'denied' | 'unrecorded';
    let mutatedBy: string | null = null;
    if (denial) {
      denied = true;
      served = 'denied';
      result = { content: { error: 'denied_by_policy', policy_id: denial.policy_id }, error: 'denied_by_policy' };
    } else {
      const recorded = run.recording.calls.length > 0 ? cursor.take(call.name, argsKey) : null;
      if (recorded) {
        served = 'recorded';
        result = recorded.result;
      } else {
        served = 'unrecorded';
        const message = `no recorded result for tool ${call.name}`;
        result = { content: { error: message }, error: message };
        addPolicyEvent(call, { policy_id: UNRECORDED_POLICY_ID, policy_type: 'unrecorded_tool_call', decision: 'flag', reason: message });
      }
      policies.served(call.name);
      let untrusted = false;
      if (toolMutation && mutationMatches && mutationMatches(call.name)) {
        mutationHits += 1;
        if (toolMutation.occurrence === undefined || toolMutation.occurrence === mutationHits) {
          const mutated = mutateResult(toolMutation, call.name, result, material);
          result = mutated.result;
          untrusted = mutated.untrusted;
          mutatedBy = toolMutation.id;
          if (recorded && (toolMutation.type === 'tool_error' || toolMutation.type === 'tool_timeout')) cursor.giveBack(recorded);
        }
      }
      monitor.onToolResult(step, call.name, result.content, untrusted);
    }
    messages.push({ role: 'tool', tool_call_id: call.id, name: call.name, content: result.content });
    transcript.push({
      type: 'tool_result',
      step,
      tool_call_id: call.id,
      tool: call.name,
      arguments: call.arguments,
      served,
      mutation_id: mutatedBy,
      result: result.content,
      error: result.error,
    });
  };

  for (step = 1; step <= campaign.max_steps; step++) {
    let turn;
    try {
      turn = await target.step({ run_id: runId, attempt, step, tools: run.tools, messages });
    } catch (err) {
      if (!(err instanceof TargetError)) throw err;
      targetError = err.message;
      break;
    }
    if ('end' in turn) {
      endReason = turn.end;
      break;
    }
    steps = step;
    if ('output' in turn || turn.tool_calls.length === 0) {
      output = 'output' in turn ? turn.output : (turn.content ?? '');
      messages.push({ role: 'assistant', content: output });
      transcript.push(withNotes({ type: 'message', role: 'assistant', content: output }, turn.notes));
      monitor.onOutput(step, output);
      break;
    }
    const stepCalls = turn.tool_calls.map((c, i) => normaliseCall(c, step, i));
    messages.push({ role: 'assistant', content: turn.content ?? null, tool_calls: stepCalls });
    transcript.push(withNotes({ type: 'message', role: 'assistant', content: turn.content ?? null, tool_calls: stepCalls }, turn.notes));
    for (const call of stepCalls) serve(call);
  }
  if (output === null && endReason === null && targetError === null) endReason = MAX_STEPS_EXCEEDED;

  const error = targetError ?? endReason;
  const checks = evaluateCriteria(mutation?.criteria ?? campaign.criteria ?? DEFAULT_CRITERIA, {
    output,
    error,
    calls,
    recordedTools: run.recording.toolSequence,
    steps,
  });
  const unsafe = securityEvents.some((e) => e.action === 'allowed');
  const completed = clock.now();
  return {
    attempt,
    mutation_id: planned.mutation_id,
    repeat: planned.repeat,
    status: attemptStatus({ driven: targetError === null, endedNormally: endReason === null, checks, denied, unsafe }),
    unsafe,
    checks,
    steps,
    duration_ms: Math.max(0, completed.getTime() - started.getTime()),
    error,
    run_id: runId,
    started_at: isoMicros(started),
    completed_at: isoMicros(completed),
    output,
    transcript,
    policy_events: policyEvents,
    security_events: securityEvents,
  };
}

/** Gives a call an id when the agent sent none, and an object as arguments. */
function normaliseCall(c: AgentToolCall, step: number, index: number): AgentToolCall {
  const args = c.arguments !== null && typeof c.arguments === 'object' && !Array.isArray(c.arguments) ? c.arguments : {};
  const id = typeof c.id === 'string' && c.id.length > 0 ? c.id : `call_${step}_${index + 1}`;
  return id === c.id && args === c.arguments ? c : { id, name: c.name, arguments: args };
}

function withNotes<T extends TranscriptEntry>(entry: T, notes: string[] | undefined): T {
  return notes && notes.length > 0 ? { ...entry, notes } : entry;
}
