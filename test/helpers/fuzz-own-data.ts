// What of a request body the own project stores as its own data (names, metadata keys and values, step text...), as
// opposed to the references it makes to other resources (`trace_id`, `run_ids`, ...): an id the fuzz writes into its
// own data legitimately comes back in its own listings, even when the write's answer did not echo it.

/** A key whose value names another resource: such an id must resolve in the caller's project, so it is never adopted. */
const REFERENCE_KEY = /_ids?$/i;

/**
 * The strings of a JSON body outside reference fields, lowercase: object keys, and values not under a key ending in
 * `_id` or `_ids`. Empty for a body that is not JSON.
 */
export function ownDataStrings(body: string): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return [];
  }
  const out: string[] = [];
  const stack: { value: unknown; reference: boolean }[] = [{ value: parsed, reference: false }];
  while (stack.length > 0) {
    const { value, reference } = stack.pop()!;
    if (typeof value === 'string') {
      if (!reference) out.push(value.toLowerCase());
    } else if (Array.isArray(value)) {
      for (const v of value) stack.push({ value: v, reference });
    } else if (typeof value === 'object' && value !== null) {
      for (const [k, v] of Object.entries(value)) {
        out.push(k.toLowerCase());
        stack.push({ value: v, reference: REFERENCE_KEY.test(k) });
      }
    }
  }
  return out;
}
