// argument_constraint: a dotted-path argument checked against max/min/pattern/enum; a missing argument is a violation.
import type { Policy } from '../../campaigns/schema';
import { canonicalJson } from '../../json';
import { compilePattern, type Pattern } from '../pattern';
import { getPath } from '../values';

type ArgumentConstraint = Extract<Policy, { type: 'argument_constraint' }>;

export interface CompiledConstraint {
  policy: ArgumentConstraint;
  pattern: Pattern | null;
  enumKeys: Set<string> | null;
}

export function compileConstraint(policy: ArgumentConstraint): CompiledConstraint {
  let pattern: Pattern | null = null;
  if (policy.pattern !== undefined) {
    // The schema rejects patterns that do not compile; a stored one that still fails never matches (fail closed).
    pattern = compilePattern(policy.pattern) ?? { source: policy.pattern, textLimit: Infinity, test: () => false };
  }
  return { policy, pattern, enumKeys: policy.enum ? new Set(policy.enum.map((v) => canonicalJson(v))) : null };
}

/**
 * Checks the argument. A constraint states which values are acceptable, and an absent value is not one of them:
 * a missing argument is a violation (fail closed), as is a non-numeric value under max/min.
 */
export function checkArgument(c: CompiledConstraint, args: Record<string, unknown>): { ok: boolean; reason: string } {
  const { policy: p } = c;
  const got = getPath(args, p.argument);
  if (!got.found) return { ok: false, reason: `argument ${p.argument} is missing` };
  const value = got.value;
  const shown = `${p.argument}=${short(value)}`;
  if (p.max !== undefined || p.min !== undefined) {
    const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
    if (!Number.isFinite(n)) return { ok: false, reason: `${shown} is not a number` };
    if (p.max !== undefined && n > p.max) return { ok: false, reason: `${shown} exceeds max ${p.max}` };
    if (p.min !== undefined && n < p.min) return { ok: false, reason: `${shown} is below min ${p.min}` };
  }
  if (c.pattern) {
    const text = typeof value === 'string' ? value : typeof value === 'object' ? canonicalJson(value) : String(value);
    const cut = text.length > c.pattern.textLimit ? ` (in its first ${c.pattern.textLimit} characters)` : '';
    if (!c.pattern.test(text)) return { ok: false, reason: `${shown} does not match ${p.pattern}${cut}` };
  }
  if (c.enumKeys && !c.enumKeys.has(canonicalJson(value))) return { ok: false, reason: `${shown} is not one of the allowed values` };
  return { ok: true, reason: `${shown} satisfies the constraint` };
}

function short(value: unknown): string {
  const text = typeof value === 'string' ? JSON.stringify(value) : canonicalJson(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
