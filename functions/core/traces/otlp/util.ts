// Small total helpers for reading loosely typed OTLP input: they never throw on odd values.
import type { Attrs } from './types';

/**
 * AnyValue nesting kept by both readers (OTLP/JSON and protobuf, which must read any export the same); a value nested
 * deeper becomes this marker, so a decoded protobuf body stays within the route's JSON depth limit.
 */
export const MAX_VALUE_DEPTH = 20;
export const NESTED_TOO_DEEP = '[nested too deep]';

/**
 * An AnyValue double as both readers keep it: a number the store can hold (0, or a magnitude from 1e-130 to below
 * 1e126), else its text, as proto3 JSON writes NaN and Infinity. So a value beyond that range never fails an export.
 */
export function storableDouble(d: number): number | string {
  return Number.isFinite(d) && (d === 0 || (Math.abs(d) >= 1e-130 && Math.abs(d) < 1e126)) ? d : String(d);
}

/** Rewrites, in place, every `doubleValue` number of a parsed OTLP/JSON body with storableDouble (iterative: any depth). */
export function storableDoubles(body: unknown): void {
  const stack: unknown[] = [body];
  while (stack.length > 0) {
    const node = stack.pop();
    if (Array.isArray(node)) stack.push(...node);
    else if (typeof node === 'object' && node !== null) {
      const o = node as Record<string, unknown>;
      if (typeof o.doubleValue === 'number') o.doubleValue = storableDouble(o.doubleValue);
      for (const v of Object.values(o)) if (typeof v === 'object' && v !== null) stack.push(v);
    }
  }
}

/**
 * A value as text without running any of its code: a string as it is, a number or boolean as String() gives it, null
 * and undefined as '', an object or array as its JSON. (String() of a parsed object calls its `toString`, which the
 * JSON may have replaced by a non-function: that throws.)
 */
export function scalarText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  if (v === null || v === undefined) return '';
  try {
    return JSON.stringify(v) ?? '';
  } catch {
    return '';
  }
}

/** A value as a number without running any of its code: Number() of a string, number, boolean or null, else NaN. */
export function scalarNumber(v: unknown): number {
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' || v === null ? Number(v) : NaN;
}

export function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function objectOf(v: unknown): Attrs | undefined {
  return isObj(v) ? v : undefined;
}

export function arr(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

/** A non-blank string (numbers as their decimal text), else undefined. */
export function str(v: unknown): string | undefined {
  if (typeof v === 'string') return v.trim() ? v : undefined;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return undefined;
}

export function clip(v: string | undefined, max: number): string | undefined {
  return v === undefined ? undefined : v.slice(0, max);
}

export function prune<T extends Record<string, unknown>>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** JSON strings become values; anything that is not valid JSON stays as it is. */
export function parseJson(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  const s = v.trim();
  if (!s) return v;
  try {
    return JSON.parse(s);
  } catch {
    return v;
  }
}

/** Groups `<prefix>N.<rest>` keys into one record per index N (in index order), keyed by `<rest>`. */
export function groupIndexed(attrs: Attrs, prefix: string): Attrs[] {
  const groups = new Map<number, Attrs>();
  for (const [key, value] of Object.entries(attrs)) {
    if (!key.startsWith(prefix)) continue;
    const m = /^(\d+)\.(.+)$/.exec(key.slice(prefix.length));
    if (!m) continue;
    const index = Number(m[1]);
    const group = groups.get(index) ?? {};
    group[m[2]] = value;
    groups.set(index, group);
  }
  return [...groups.entries()].sort((x, y) => x[0] - y[0]).map(([, g]) => g);
}

export function findLastIndex<T>(items: T[], pred: (item: T) => boolean): number {
  for (let i = items.length - 1; i >= 0; i -= 1) if (pred(items[i])) return i;
  return -1;
}

/** A decimal nanosecond timestamp as BigInt (undefined stays undefined). */
export function nanosOf(v: string | undefined): bigint | undefined {
  return v === undefined ? undefined : BigInt(v);
}
