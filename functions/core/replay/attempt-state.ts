// One attempt in progress: its state, its set-up (the opening conversation, the recorders of policy and security events).
import type { PolicyEvent, SecurityEvent, TranscriptEntry } from '../runs/types';
import { isoMicros, type Clock } from '../time';
import type { CompiledRun, MutationPlan, TurnMessages } from './compile';
import { SecurityMonitor, type SecurityFinding } from './detectors/monitor';
import { globMatcher } from './glob';
import { eventIds } from './hash';
import type { ToolMutation } from './mutations/tool-result';
import { PolicyState, type PolicyDecision } from './policies/evaluate';
import { RecordingCursor } from './recording';
import type { AgentToolCall, ChatMessage, PlannedAttempt } from './types';

/** Everything one attempt builds up while the agent loop runs; the steps of the loop read and update it. */
export interface AttemptState {
  readonly run: CompiledRun;
  readonly planned: PlannedAttempt;
  /** The attempt's mutation when it acts on tool results (an input perturbation acts on the opening messages instead). */
  readonly toolMutation: ToolMutation | null;
  /** Which tools the tool mutation applies to; null without one. */
  readonly mutationMatches: ((tool: string) => boolean) | null;
  /** The mutation's payloads (injection text, baited credential, canaries). */
  readonly material: MutationPlan;
  /** The conversation the agent sees, growing step by step. */
  readonly messages: ChatMessage[];
  readonly transcript: TranscriptEntry[];
  /** The openings of turns 2..n, sent one at a time as the agent answers the turn before (none for a single turn). */
  readonly laterTurns: readonly TurnMessages[];
  /** The agent's output for each turn it answered, turn 1 first. */
  readonly turnOutputs: string[];
  /** Where each answered turn ends: the lengths of `messages` and `transcript` right after its output. */
  readonly turnEnds: Array<{ messages: number; transcript: number }>;
  readonly policyEvents: PolicyEvent[];
  readonly securityEvents: SecurityEvent[];
  /** Every tool call the agent made, in order (criteria read them). */
  readonly calls: AgentToolCall[];
  readonly policies: PolicyState;
  /** Which recorded results are still to be served. */
  readonly cursor: RecordingCursor;
  readonly monitor: SecurityMonitor;
  /** Records a policy decision on a call as an event of the current step. */
  readonly recordPolicyEvent: (call: AgentToolCall, decision: PolicyDecision) => void;
  /** The agent step in progress, from 1. */
  step: number;
  /** The user turn in progress, from 1. */
  turn: number;
  /** Whether the agent answered the last turn (the loop ended normally). */
  finished: boolean;
  /** The last step the agent answered (with tool calls or its output). */
  steps: number;
  /** Calls the tool mutation's tool pattern has matched so far (its `occurrence` counts them). */
  mutationHits: number;
  /** Whether a policy denied some call. */
  denied: boolean;
  /** The agent's last output (the last turn's once it gave one). */
  output: string | null;
  /** Why the attempt ended without an output (the recording ran out, too many steps). */
  endReason: string | null;
  /** The message of the TargetError that stopped the attempt. */
  targetError: string | null;
  /** Whether that TargetError was the run deadline passing (error_code run_deadline_exceeded). */
  deadlineExceeded: boolean;
  /** The simulated user's calls and cached answers, and why it could not answer (docs/campaigns-and-replay.md#simulated-user). */
  readonly simulated: { calls: number; hits: number; unavailable: string | null };
}

/**
 * Sets up one attempt: the opening conversation and transcript (with an input perturbation applied), fresh policy
 * state and recording cursor, and the policy and security recorders, which stamp events with the clock's time.
 */
export function openAttempt(run: CompiledRun, planned: PlannedAttempt, clock: Clock): AttemptState {
  const { runId } = run;
  const attempt = planned.attempt;
  const mutation = planned.mutation;
  const toolMutation: ToolMutation | null = mutation && mutation.type !== 'input_perturbation' ? mutation : null;
  const material = run.material(mutation);
  const base = run.base(mutation);
  const policyEvents: PolicyEvent[] = [];
  const securityEvents: SecurityEvent[] = [];
  const stamp = instantFormatter(clock);
  const policyId = eventIds(runId, attempt, 'policy');
  const securityId = eventIds(runId, attempt, 'security');

  const monitor = new SecurityMonitor(
    {
      detectors: run.detectors,
      allowedDomains: run.allowedDomains,
      injection:
        material.injectionCanary && toolMutation?.type === 'prompt_injection'
          ? { canary: material.injectionCanary, goal: toolMutation.goal ?? {} }
          : null,
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

  const state: AttemptState = {
    run,
    planned,
    toolMutation,
    mutationMatches: toolMutation ? globMatcher(toolMutation.tool) : null,
    material,
    messages: base.messages.slice(),
    transcript: base.transcript.slice(),
    laterTurns: base.later,
    turnOutputs: [],
    turnEnds: [],
    policyEvents,
    securityEvents,
    calls: [],
    policies: new PolicyState(run.policies),
    cursor: new RecordingCursor(run.recording),
    monitor,
    recordPolicyEvent: (call, d) => {
      const sequence = policyEvents.length + 1;
      policyEvents.push({
        event_id: policyId(sequence),
        run_id: runId,
        attempt,
        sequence,
        step: state.step,
        policy_id: d.policy_id,
        policy_type: d.policy_type,
        decision: d.decision,
        tool: call.name,
        arguments: call.arguments,
        reason: d.reason,
        created_at: stamp(),
      });
    },
    step: 0,
    turn: 1,
    finished: false,
    steps: 0,
    mutationHits: 0,
    denied: false,
    output: null,
    endReason: null,
    targetError: null,
    deadlineExceeded: false,
    simulated: { calls: 0, hits: 0, unavailable: null },
  };
  return state;
}

// Events of one step share a clock reading more often than not: format each distinct instant once.
function instantFormatter(clock: Clock): () => string {
  let lastMs = NaN;
  let lastIso = '';
  return () => {
    const now = clock.now();
    if (now.getTime() !== lastMs) {
      lastMs = now.getTime();
      lastIso = isoMicros(now);
    }
    return lastIso;
  };
}
