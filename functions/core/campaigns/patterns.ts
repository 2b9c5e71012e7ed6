// The campaign's user regexes must compile on the linear-time engine (RE2 syntax). Checked when a campaign is created,
// not in the zod schema, so the routes and documents that only read campaigns do not bundle the regex engine.
import { ValidationError, type ErrorDetail } from '../errors';
import { patternError } from '../replay/pattern';
import type { CampaignInput, Criterion } from './schema';

/**
 * Throws 422 validation_error naming each pattern (by path) that has no linear-time form (backreferences,
 * lookaround) or compiles to a program larger than PATTERN_PROGRAM_MAX.
 */
export function assertPatternsCompile(c: CampaignInput): void {
  const details: ErrorDetail[] = [];
  const check = (pattern: string, path: string) => {
    const error = patternError(pattern);
    if (error) details.push({ path, message: error });
  };
  const checkCriteria = (criteria: readonly Criterion[] | undefined, prefix: string) => {
    for (const [i, cr] of (criteria ?? []).entries()) if (cr.type === 'output_matches') check(cr.pattern, `${prefix}${i}.pattern`);
  };
  for (const [i, p] of c.policies.entries())
    if (p.type === 'argument_constraint' && p.pattern !== undefined) check(p.pattern, `policies.${i}.pattern`);
  checkCriteria(c.criteria, 'criteria.');
  for (const [i, m] of c.mutations.entries()) checkCriteria(m.criteria, `mutations.${i}.criteria.`);
  if (details.length) throw new ValidationError('The request body is invalid.', details);
}
