// Helpers over JSON values: dotted paths, subset matching, string leaves for scanning.
import { canonicalJson } from '../json';

type Json = unknown;

const isObject = (v: Json): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * Canonical JSON (keys sorted at every depth, compact), byte-identical to core/json's canonicalJson for JSON
 * values, without building sorted copies first: it runs for every tool call.
 */
export function canonical(value: Json): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
    case 'number':
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object': {
      if (Array.isArray(value)) {
        let out = '[';
        for (let i = 0; i < value.length; i++) {
          const v: unknown = value[i];
          if (i > 0) out += ',';
          out += v === undefined || typeof v === 'function' || typeof v === 'symbol' ? 'null' : canonical(v);
        }
        return `${out}]`;
      }
      if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return canonicalJson(value);
      const obj = value as Record<string, unknown>;
      let out = '{';
      let first = true;
      for (const key of Object.keys(obj).sort()) {
        const v = obj[key];
        if (v === undefined || typeof v === 'function' || typeof v === 'symbol') continue;
        out += `${first ? '' : ','}${JSON.stringify(key)}:${canonical(v)}`;
        first = false;
      }
      return `${out}}`;
    }
    default:
      return canonicalJson(value);
  }
}

/** Reads a dotted path (`customer.address.city`, array indexes as `items.0.sku`); `found` is false when absent. */
export function getPath(value: Json, path: string): { found: boolean; value?: unknown } {
  let current: unknown = value;
  for (const part of path.split('.')) {
    if (Array.isArray(current) && /^\d+$/.test(part) && Number(part) < current.length) current = current[Number(part)];
    else if (isObject(current) && Object.hasOwn(current, part)) current = current[part];
    else return { found: false };
  }
  return current === undefined ? { found: false } : { found: true, value: current };
}

/**
 * true when `expected` is contained in `actual`: every key of an expected object is present with a matching
 * value (recursively); arrays and scalars must be equal (canonical JSON).
 */
export function isSubset(expected: Json, actual: Json): boolean {
  if (isObject(expected)) {
    if (!isObject(actual)) return false;
    for (const key of Object.keys(expected)) {
      if (expected[key] === undefined) continue;
      if (!Object.hasOwn(actual, key) || !isSubset(expected[key], actual[key])) return false;
    }
    return true;
  }
  if (expected === actual) return true;
  if (typeof expected !== 'object' || typeof actual !== 'object') return false;
  return canonicalJson(expected) === canonicalJson(actual);
}

/** The text of a JSON value as scanners see it: strings as they are, anything else as JSON. */
export function scanText(value: Json): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  return JSON.stringify(value) ?? '';
}

/** Every string leaf (and object key) of a value joined by newlines: instruction scanners read text, not JSON quoting. */
export function stringLeaves(value: Json): string {
  if (typeof value === 'string') return value;
  const out: string[] = [];
  const walk = (v: Json, depth: number): void => {
    if (depth > 64) return;
    if (typeof v === 'string') out.push(v);
    else if (Array.isArray(v)) for (const item of v) walk(item, depth + 1);
    else if (isObject(v)) {
      for (const key of Object.keys(v)) {
        out.push(key);
        walk(v[key], depth + 1);
      }
    }
  };
  walk(value, 0);
  return out.join('\n');
}
