// The `http` target: drives the customer's agent through the rts.step.v1 step protocol
// (docs/connect-your-agent.md#the-step-protocol-http-target).
import type { Target } from '../../campaigns/schema';
import type { HttpSender } from '../../ports';
import { realSleep, type AgentTarget, type AgentToolCall, type AgentTurn, type Sleep } from '../types';
import { failOnStatus, isObject, mergeHeaders, parseJsonObject, RetryableFailure, withRetries } from './retry';
import type { ThrottleOf } from './throttle';

export type HttpTargetConfig = Extract<Target, { type: 'http' }>;

export const STEP_PROTOCOL = 'rts.step.v1';

/**
 * An AgentTarget POSTing each step to `target.url` through the injected (SSRF-guarded) sender, with the campaign
 * headers and `Idempotency-Key: <run_id>:<attempt>:<step>` (the same on every try of the step), retrying as retry.ts
 * says.
 */
export function httpTarget(target: HttpTargetConfig, deps: { http: HttpSender; sleep?: Sleep; throttle?: ThrottleOf }): AgentTarget {
  const sleep = deps.sleep ?? realSleep;
  return {
    async step(req) {
      const body = JSON.stringify({
        protocol: STEP_PROTOCOL,
        run_id: req.run_id,
        attempt: req.attempt,
        step: req.step,
        ...(req.turn !== undefined ? { turn: req.turn } : {}),
        tools: req.tools,
        messages: req.messages,
      });
      const headers = mergeHeaders(target.headers, {
        'Content-Type': 'application/json',
        'Idempotency-Key': `${req.run_id}:${req.attempt}:${req.step}`,
      });
      return withRetries(
        async () => {
          const res = await deps.http({ url: target.url, method: 'POST', headers, body, timeoutMs: target.timeout_ms ?? 30000 });
          failOnStatus(res);
          return parseStepAnswer(res.body);
        },
        sleep,
        deps.throttle?.(req.attempt),
      );
    },
  };
}

/** Parses `{"tool_calls": [{"id?", "name", "arguments"}]}` or `{"output": "..."}`; anything else is retryable. */
export function parseStepAnswer(body: string): AgentTurn {
  const answer = parseJsonObject(body);
  if (Array.isArray(answer.tool_calls) && answer.tool_calls.length > 0) {
    const calls: AgentToolCall[] = answer.tool_calls.map((raw, i) => {
      if (!isObject(raw) || typeof raw.name !== 'string' || raw.name === '') {
        throw new RetryableFailure(`unparseable answer: tool_calls[${i}] needs a name`);
      }
      return { id: typeof raw.id === 'string' ? raw.id : '', name: raw.name, arguments: parseArguments(raw.arguments, i) };
    });
    return { tool_calls: calls, content: typeof answer.content === 'string' ? answer.content : null };
  }
  if (typeof answer.output === 'string') return { output: answer.output };
  throw new RetryableFailure('unparseable answer: expected tool_calls or output');
}

function parseArguments(raw: unknown, i: number): Record<string, unknown> {
  if (raw === undefined || raw === null) return {};
  if (isObject(raw)) return raw;
  if (typeof raw === 'string') {
    if (raw.trim() === '') return {};
    try {
      const parsed: unknown = JSON.parse(raw);
      if (isObject(parsed)) return parsed;
    } catch {
      // fall through: reported below
    }
  }
  throw new RetryableFailure(`unparseable answer: tool_calls[${i}].arguments is not an object`);
}
