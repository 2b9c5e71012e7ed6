// Per-run preparation, done once and shared by every attempt: recording index, policies, payloads, base messages.
import type { Campaign, DetectorKind, Mutation } from '../campaigns/schema';
import type { TranscriptEntry } from '../runs/types';
import type { ToolDefinition, Trace } from '../traces/schema';
import { normaliseDomains } from './detectors/monitor';
import { canaryToken } from './hash';
import { perturbInput } from './mutations/input-perturbation';
import { baitCredential, injectionText } from './mutations/payloads';
import type { MutationMaterial } from './mutations/tool-result';
import { compilePolicies, type CompiledPolicy } from './policies/evaluate';
import { indexRecording, type Recording } from './recording';
import { splitTurns, type TurnOpening } from './turns';
import type { ChatMessage } from './types';

export interface RunInput {
  run_id: string;
  trace: Trace;
  campaign: Campaign;
}

export interface MutationPlan extends MutationMaterial {
  injectionCanary: string | null;
  baitCanary: string | null;
}

/** What opens one turn: its system and user steps (input perturbation applied), as messages and transcript entries. */
export interface TurnMessages {
  messages: ChatMessage[];
  transcript: TranscriptEntry[];
}

/**
 * The conversation's opening (turn 1: `messages`, `transcript`) and the openings of the later turns, sent once the
 * agent has answered the turn before (docs/campaigns-and-replay.md#turns). `later` is empty for a single-turn trace.
 */
export interface BaseConversation extends TurnMessages {
  later: TurnMessages[];
}

export interface CompiledRun {
  runId: string;
  trace: Trace;
  campaign: Campaign;
  recording: Recording;
  policies: CompiledPolicy[];
  detectors: ReadonlySet<DetectorKind>;
  allowedDomains: string[];
  tools: ToolDefinition[];
  /** How many user turns the trace has (1 for a single-turn trace). */
  turnCount: number;
  /**
   * Whether messages carry their turn and attempts record `turn_outputs`: the trace has several user turns, or a
   * simulated user may add some (docs/campaigns-and-replay.md#simulated-user).
   */
  numberedTurns: boolean;
  /** Every recorded user message, in order: the simulated user's goal. */
  userGoal: string[];
  /** Payloads and canaries of a mutation (empty for the baseline). */
  material(mutation: Mutation | null): MutationPlan;
  /** The conversation's opening for a mutation (null: the baseline); shared, never mutated by attempts. */
  base(mutation: Mutation | null): BaseConversation;
}

const NONE: MutationPlan = { injectionCanary: null, baitCanary: null };

/** Prepares a run for replay: everything that does not change between attempts is computed here once. */
export function compileRun(input: RunInput): CompiledRun {
  const { trace, campaign } = input;
  const materials = new Map<string, MutationPlan>();
  const bases = new Map<string | null, BaseConversation>();
  const turns = splitTurns(trace.steps);
  const numberedTurns = turns.length > 1 || campaign.user_simulator !== undefined;

  const material = (m: Mutation | null): MutationPlan => {
    if (!m) return NONE;
    let plan = materials.get(m.id);
    if (!plan) {
      plan = { ...NONE };
      if (m.type === 'prompt_injection') {
        plan.injectionCanary = canaryToken('inject', campaign.campaign_id, trace.trace_id, m.id);
        plan.injection = injectionText(m, plan.injectionCanary);
      } else if (m.type === 'secret_bait') {
        plan.baitCanary = canaryToken('bait', campaign.campaign_id, trace.trace_id, m.id);
        plan.bait = baitCredential(plan.baitCanary);
      }
      materials.set(m.id, plan);
    }
    return plan;
  };

  const base = (m: Mutation | null): BaseConversation => {
    const key = m && m.type === 'input_perturbation' ? m.id : null;
    let conv = bases.get(key);
    if (!conv) {
      const [first, ...rest] = turns.map((opening, i) => turnMessages(opening, m, numberedTurns ? i + 1 : null));
      conv = { ...first, later: rest };
      bases.set(key, conv);
    }
    return conv;
  };

  return {
    runId: input.run_id,
    trace,
    campaign,
    recording: indexRecording(trace),
    policies: compilePolicies(campaign.policies),
    detectors: new Set(campaign.security.detectors),
    allowedDomains: normaliseDomains(campaign.security.allowed_domains),
    tools: trace.tools ?? [],
    turnCount: turns.length,
    numberedTurns,
    userGoal: trace.steps.flatMap((s) => (s.role === 'user' ? [s.content] : [])),
    material,
    base,
  };
}

/** A turn's opening as messages and transcript entries (numbered with `turn` only when the trace has several turns). */
function turnMessages(opening: TurnOpening, m: Mutation | null, turn: number | null): TurnMessages {
  const out: TurnMessages = { messages: [], transcript: [] };
  for (const step of opening) {
    const content = step.role === 'user' && m && m.type === 'input_perturbation' ? perturbInput(m, step.content) : step.content;
    out.messages.push({ role: step.role, content });
    out.transcript.push(turn === null ? { type: 'message', role: step.role, content } : { type: 'message', role: step.role, content, turn });
  }
  return out;
}
