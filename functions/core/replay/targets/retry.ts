// The retry rule shared by network targets (docs/connect-your-agent.md#retries): three tries, waiting 0.5 s then 1 s;
// a blocked address is final; 429 and 503 are waited out apart (throttle.ts).
import { OutboundError, type OutboundResponse } from '../../ports';
import { tries } from '../../retry';
import { TargetError, type Sleep } from '../types';
import { isThrottle, retryAfterHeader, Throttled, throttlePolicy, waitOut, type ThrottlePolicy } from './throttle';

export const RETRY_DELAYS_MS: readonly number[] = [500, 1000];

/** A try that failed in a way a retry may fix (non-2xx, timeout, connection error, unparseable answer). */
export class RetryableFailure extends Error {}

/**
 * Runs `once` up to 1 + `delays.length` times (RETRY_DELAYS_MS unless given). An OutboundError of kind `blocked` (the SSRF guard) ends at
 * once: the same address would be refused again. Exhausted retries become a TargetError naming the last failure.
 * A 429 or 503 (`Throttled`) is waited out and tried again without using up a try, as `policy` says (throttle.ts);
 * each try runs inside the policy's gate (the key's limits) when it has one.
 */
export async function withRetries<T>(
  once: () => Promise<T>,
  sleep: Sleep,
  policy: Partial<ThrottlePolicy> = {},
  delays: readonly number[] = RETRY_DELAYS_MS,
): Promise<T> {
  const p = throttlePolicy(policy);
  let last = '';
  let backoffs = 0;
  for await (const _try of tries(delays, sleep)) {
    for (;;) {
      try {
        return await gated(p, once);
      } catch (err) {
        if (err instanceof Throttled) {
          await waitOut(err, p, backoffs++, sleep);
          continue;
        }
        if (err instanceof TargetError) throw err;
        if (err instanceof OutboundError && err.kind === 'blocked') throw new TargetError(`target ${err.message}`);
        if (err instanceof RetryableFailure || err instanceof OutboundError) last = err.message;
        else last = `connection error: ${err instanceof Error ? err.message : String(err)}`;
        break;
      }
    }
  }
  const n = delays.length + 1;
  throw new TargetError(`target failed after ${n} ${n === 1 ? 'try' : 'tries'}: ${last}`);
}

async function gated<T>(p: ThrottlePolicy, once: () => Promise<T>): Promise<T> {
  if (!p.gate) return once();
  const leave = await p.gate.enter(p);
  try {
    return await once();
  } finally {
    await leave().catch(() => undefined); // a slot not freed ends by its lease's expiry
  }
}

/** A non-2xx answer as the failure the loop above handles: Throttled for 429/503, else a RetryableFailure. */
export function failOnStatus(res: OutboundResponse): void {
  if (res.status >= 200 && res.status <= 299) return;
  if (isThrottle(res.status)) throw new Throttled(res.status, retryAfterHeader(res.headers));
  throw new RetryableFailure(`HTTP ${res.status}`);
}

/** Caller headers first, then ours, which replace any caller header of the same name (case-insensitively). */
export function mergeHeaders(custom: Record<string, string> | undefined, ours: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  const reserved = new Set(Object.keys(ours).map((k) => k.toLowerCase()));
  for (const [k, v] of Object.entries(custom ?? {})) if (!reserved.has(k.toLowerCase())) out[k] = v;
  return Object.assign(out, ours);
}

/** The response body as a JSON object, or a RetryableFailure. */
export function parseJsonObject(body: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    throw new RetryableFailure(`unparseable answer: not JSON (${preview(body)})`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new RetryableFailure('unparseable answer: not a JSON object');
  return value as Record<string, unknown>;
}

export function preview(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 80 ? `${flat.slice(0, 77)}...` : flat || 'empty body';
}

export const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
