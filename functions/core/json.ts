// Canonical JSON: keys sorted at every depth, compact separators. Used for webhook bodies, argument matching and request hashing.
import { createHash } from 'node:crypto';

export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortDeep(value));
}

function sortDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((element) => sortDeep(element));
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    // defineProperty, not assignment: a `__proto__` key must stay a key (assignment would set the prototype and
    // drop it from the output, so two different bodies would hash and sign alike).
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value as Record<string, unknown>).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) Object.defineProperty(out, key, { value: sortDeep(v), enumerable: true, writable: true, configurable: true });
    }
    return out;
  }
  return value;
}

export function sha256Hex(input: string | Buffer): string {
  return createHash('sha256').update(input).digest('hex');
}

/** Nesting depth of a JSON value (a scalar is 0), computed without recursion so hostile input cannot overflow the stack. */
export function jsonDepth(value: unknown, stopAt = Infinity): number {
  let max = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    const depth = d + 1;
    if (depth > max) max = depth;
    if (max > stopAt) return max;
    for (const child of Array.isArray(v) ? v : Object.values(v as Record<string, unknown>)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth]);
    }
  }
  return max;
}

/** DynamoDB's number range: magnitudes from 1e-130 to below 1e126 (and 0). */
const MAX_STORABLE = 1e126;
const MIN_STORABLE = 1e-130;

export interface JsonProblem {
  /** Dotted path of the offending value ("" for the root), e.g. `metadata.n` or `steps.3.content`. */
  path: string;
  message: string;
}

/**
 * The first value of a parsed JSON body the service cannot keep as it was sent: nesting deeper than `maxDepth`, or a
 * number that is not finite (`1e999` and 400-digit integers parse to Infinity) or lies outside the range the store
 * holds. Iterative, so hostile input cannot overflow the stack.
 */
export function findJsonProblem(value: unknown, maxDepth: number): JsonProblem | null {
  const stack: [unknown, number, string][] = [[value, 0, '']];
  while (stack.length) {
    const [v, d, path] = stack.pop()!;
    if (typeof v === 'number') {
      const abs = Math.abs(v);
      if (!Number.isFinite(v)) return { path, message: 'must be a finite number' };
      if (abs >= MAX_STORABLE || (abs !== 0 && abs < MIN_STORABLE))
        return { path, message: 'must be a number of magnitude from 1e-130 to below 1e126, or 0' };
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    if (d + 1 > maxDepth) return { path, message: `nesting deeper than ${maxDepth} levels` };
    const entries = Array.isArray(v) ? v.map((c, i) => [String(i), c] as const) : Object.entries(v as Record<string, unknown>);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [k, child] = entries[i];
      if (typeof child === 'number' || (child !== null && typeof child === 'object')) stack.push([child, d + 1, path ? `${path}.${k}` : k]);
    }
  }
  return null;
}
