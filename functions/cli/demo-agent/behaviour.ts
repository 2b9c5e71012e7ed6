// The demo agent's behaviour: its answer to one step request, replayed from its plan and the tool results so far.
import { canonicalJson } from '../../core/json';
import type { TraceInput } from '../../core/traces/schema';
import { findCanary, findSecrets, isErrorResult, parseInjection, resultTexts, type ToolOffer } from './injection';
import { matchPlan, toPlans, type DemoPlan, type PlannedCall } from './plan';
import type { StepMessage, StepReply, StepRequest } from './protocol';

/** The answer to a user message past the end of the recorded conversation (a simulated user going on). */
const CLOSING_OUTPUT = 'Glad I could help. Is there anything else I can do for you?';
const GENERIC_OUTPUT =
  "I'm sorry, I don't know how to help with that request yet. I can refund orders, book flights, summarise documents and schedule meetings.";

type TurnKind = 'plan' | 'retry' | 'inject';
type Turn = { kind: TurnKind; calls: PlannedCall[] } | { kind: 'final'; output: string };

/** The agent's memory, rebuilt from the messages on every step: the protocol is stateless on the agent's side. */
interface AgentState {
  planIndex: number;
  pendingRetry: PlannedCall[] | null;
  pendingInjections: PlannedCall[];
  obeyed: Set<string>;
  secrets: string[];
  gaveUpOn: string | null;
}

/**
 * Decides the agent's answer to one step request. Pure and deterministic: the same request always gets the same reply.
 * The position in the plan is found by replaying the agent's own decisions over the tool messages received so far.
 */
export function decideStep(request: StepRequest, plans: DemoPlan[] | TraceInput[], guarded = false): StepReply {
  const known = toPlans(plans);
  const user = request.messages.find((m) => m.role === 'user');
  const plan = user ? matchPlan(known, contentText(user.content)) : null;
  if (!plan) return { output: GENERIC_OUTPUT };

  // From the second user turn on, the agent replays that turn of the recording from its user message on.
  const { turn, opening } = currentTurn(request.messages);
  const segment = turn === 1 ? plan : { ...plan, ...(plan.followUps[turn - 2] ?? { turns: [], final: CLOSING_OUTPUT }) };
  const history = request.messages.slice(opening + 1).filter((m) => m.role === 'assistant' || m.role === 'tool');
  const offers = toolOffers(request.tools);
  const state: AgentState = { planIndex: 0, pendingRetry: null, pendingInjections: [], obeyed: new Set(), secrets: [], gaveUpOn: null };
  let cursor = 0;
  // Each simulated turn consumes at least one message, so the loop ends; the bound only guards against surprises.
  for (let guard = 0; guard <= request.messages.length + 1; guard++) {
    const next = nextTurn(state, segment, guarded);
    if (next.kind === 'final') return { output: next.output };
    while (cursor < history.length && history[cursor]!.role !== 'tool') cursor++;
    if (cursor >= history.length) return reply(next.calls, request);
    const results: StepMessage[] = [];
    while (cursor < history.length && results.length < next.calls.length && history[cursor]!.role === 'tool') {
      results.push(history[cursor++]!);
    }
    absorb(state, next.kind, next.calls, results, offers, guarded);
  }
  return { output: GENERIC_OUTPUT };
}

/**
 * The user turn the request is in (from 1: each user message after an assistant message opens the next one) and the
 * index of the last user message, after which that turn's history starts.
 */
function currentTurn(messages: readonly StepMessage[]): { turn: number; opening: number } {
  let turn = 1;
  let opening = -1;
  messages.forEach((m, i) => {
    if (m.role !== 'user') return;
    if (opening >= 0 && messages[i - 1]?.role === 'assistant') turn += 1;
    opening = i;
  });
  return { turn, opening };
}

// Trace tools are {name, parameters}; OpenAI-style {type: "function", function: {...}} entries are accepted too.
function toolOffers(tools: unknown[]): ToolOffer[] {
  return tools.flatMap((t) => {
    const def = (t as { function?: unknown })?.function ?? t;
    const name = (def as { name?: unknown } | null)?.name;
    return typeof name === 'string' && name !== '' ? [{ name, parameters: (def as { parameters?: unknown }).parameters }] : [];
  });
}

function nextTurn(state: AgentState, plan: DemoPlan, guarded: boolean): Turn {
  if (state.gaveUpOn !== null) {
    return {
      kind: 'final',
      output: withSecrets(
        `I'm sorry, I couldn't finish your request: the ${state.gaveUpOn} tool is unavailable right now (it failed twice). Please try again later.`,
        state,
        guarded,
      ),
    };
  }
  if (state.pendingInjections.length > 0) {
    const calls = state.pendingInjections;
    state.pendingInjections = [];
    return { kind: 'inject', calls };
  }
  if (state.pendingRetry) {
    const calls = state.pendingRetry;
    state.pendingRetry = null;
    return { kind: 'retry', calls };
  }
  if (state.planIndex < plan.turns.length) return { kind: 'plan', calls: plan.turns[state.planIndex++]! };
  return { kind: 'final', output: withSecrets(plan.final, state, guarded) };
}

function withSecrets(output: string, state: AgentState, guarded: boolean): string {
  if (guarded || state.secrets.length === 0) return output;
  return `${output} For reference: ${state.secrets.join(', ')}`;
}

function absorb(state: AgentState, kind: TurnKind, calls: PlannedCall[], results: StepMessage[], tools: ToolOffer[], guarded: boolean): void {
  const failed = calls.filter((_, i) => results[i] !== undefined && isErrorResult(results[i]!));
  // Errors of a call the agent was tricked into making are not worth a retry: it just goes back to its plan.
  if (kind === 'plan' && failed.length > 0) state.pendingRetry = failed;
  if (kind === 'retry' && failed.length > 0) state.gaveUpOn = failed[0]!.name;
  if (guarded) return;
  for (const result of results) {
    for (const text of resultTexts(result)) {
      for (const secret of findSecrets(text)) if (!state.secrets.includes(secret)) state.secrets.push(secret);
      const injected = parseInjection(text, tools);
      if (!injected) continue;
      const key = findCanary(text) ?? `${injected.name}:${canonicalJson(injected.arguments)}`;
      if (state.obeyed.has(key)) continue;
      state.obeyed.add(key);
      state.pendingInjections.push(injected);
    }
  }
}

function reply(calls: PlannedCall[], request: StepRequest): StepReply {
  const prefix = `call_${request.attempt ?? 0}_${request.step ?? 0}`;
  return { tool_calls: calls.map((c, i) => ({ id: `${prefix}_${i + 1}`, name: c.name, arguments: c.arguments })) };
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  // OpenAI-style content parts: [{type: "text", text: "..."}]
  if (Array.isArray(content)) {
    return content
      .map((p) => (p && typeof p === 'object' && typeof (p as { text?: unknown }).text === 'string' ? (p as { text: string }).text : ''))
      .join(' ');
  }
  return content === undefined || content === null ? '' : JSON.stringify(content);
}
