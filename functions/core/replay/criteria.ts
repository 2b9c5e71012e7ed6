// Success criteria (docs/campaigns-and-replay.md#criteria): each yields a check {criterion, passed, detail}; all must
// hold for an attempt to pass.
import type { Criterion } from '../campaigns/schema';
import type { CheckResult } from '../runs/types';
import { globMatcher } from './glob';
import { compilePattern } from './pattern';
import { isSubset } from './values';

/** What the criteria look at once an attempt has ended. */
export interface AttemptFacts {
  /** The agent's final output, null when it gave none. */
  output: string | null;
  /** Why the attempt ended without a final output (agent error, max_steps_exceeded...), else null. */
  error: string | null;
  /** Every tool call the agent made, denied ones included, in order. */
  calls: ReadonlyArray<{ name: string; arguments: Record<string, unknown> }>;
  recordedTools: readonly string[];
  steps: number;
  /** The output of each turn the agent answered, turn 1 first (default: the output, as turn 1's). */
  turnOutputs?: readonly string[];
  /** The last user turn the attempt reached, from 1 (default 1). */
  turnsReached?: number;
}

export const DEFAULT_CRITERIA: Criterion[] = [{ type: 'completes' }];

/** Evaluates every criterion against the attempt's facts. */
export function evaluateCriteria(criteria: readonly Criterion[], facts: AttemptFacts): CheckResult[] {
  return criteria.map((criterion) => {
    const { passed, detail } = check(criterion, facts);
    return { criterion, passed, detail };
  });
}

/**
 * evaluateCriteria for the engine: the event loop gets a turn before each user pattern is matched, so the matches of
 * several output_matches criteria (each bounded, see pattern.ts) never add up in one turn of the loop.
 */
export async function evaluateCriteriaInTurns(criteria: readonly Criterion[], facts: AttemptFacts): Promise<CheckResult[]> {
  const checks: CheckResult[] = [];
  for (const criterion of criteria) {
    if (criterion.type === 'output_matches') await new Promise((resolve) => setImmediate(resolve));
    const { passed, detail } = check(criterion, facts);
    checks.push({ criterion, passed, detail });
  }
  return checks;
}

/**
 * An output criterion with `turn` checks that turn's output (docs/campaigns-and-replay.md#turns), its detail
 * prefixed with the turn; a turn the agent never answered fails it, whatever the criterion.
 */
function check(c: Criterion, f: AttemptFacts): { passed: boolean; detail: string } {
  const turn = 'turn' in c ? c.turn : undefined;
  if (turn === undefined) return checkOutput(c, f, f.output);
  const outputs = f.turnOutputs ?? (f.output !== null ? [f.output] : []);
  const out = outputs[turn - 1];
  if (out === undefined) {
    const reached = turn <= (f.turnsReached ?? 1);
    return { passed: false, detail: reached ? `turn ${turn} got no output: ${f.error ?? 'no final output'}` : `turn ${turn} never reached` };
  }
  const { passed, detail } = checkOutput(c, f, out);
  return { passed, detail: `turn ${turn}: ${detail}` };
}

function checkOutput(c: Criterion, f: AttemptFacts, out: string | null): { passed: boolean; detail: string } {
  switch (c.type) {
    case 'completes':
      if (f.error !== null) return { passed: false, detail: `no final output: ${f.error}` };
      return out !== null ? { passed: true, detail: 'the agent gave a final output' } : { passed: false, detail: 'no final output' };
    case 'output_contains':
      if (out === null) return { passed: false, detail: 'no final output' };
      return out.toLowerCase().includes(c.value.toLowerCase())
        ? { passed: true, detail: `output contains "${c.value}"` }
        : { passed: false, detail: `output does not contain "${c.value}"` };
    case 'output_not_contains':
      if (out === null) return { passed: true, detail: 'no final output' };
      return out.toLowerCase().includes(c.value.toLowerCase())
        ? { passed: false, detail: `output contains "${c.value}"` }
        : { passed: true, detail: `output does not contain "${c.value}"` };
    case 'output_matches': {
      const re = compilePattern(c.pattern);
      if (!re) return { passed: false, detail: `invalid pattern ${c.pattern}` };
      if (out === null) return { passed: false, detail: 'no final output' };
      const cut = out.length > re.textLimit ? ` (in its first ${re.textLimit} of ${out.length} characters)` : '';
      return re.test(out)
        ? { passed: true, detail: `output matches /${c.pattern}/${cut}` }
        : { passed: false, detail: `output does not match /${c.pattern}/${cut}` };
    }
    case 'tool_called': {
      const match = globMatcher(c.tool);
      const n = f.calls.filter((call) => match(call.name) && (!c.arguments || isSubset(c.arguments, call.arguments))).length;
      const what = c.arguments ? `${c.tool} with ${JSON.stringify(c.arguments)}` : c.tool;
      if (c.times !== undefined) {
        return { passed: n === c.times, detail: `${what} called ${n} time(s), expected ${c.times}` };
      }
      return { passed: n > 0, detail: n > 0 ? `${what} called ${n} time(s)` : `${what} never called` };
    }
    case 'tool_not_called': {
      const match = globMatcher(c.tool);
      const n = f.calls.filter((call) => match(call.name)).length;
      return { passed: n === 0, detail: n === 0 ? `${c.tool} never called` : `${c.tool} called ${n} time(s)` };
    }
    case 'same_tools_as_recorded': {
      const actual = f.calls.map((call) => call.name);
      if (c.order === 'any') {
        const a = [...new Set(actual)].sort();
        const r = [...new Set(f.recordedTools)].sort();
        const same = a.length === r.length && a.every((t, i) => t === r[i]);
        return { passed: same, detail: same ? 'same set of tools as recorded' : `tools [${a.join(', ')}], recorded [${r.join(', ')}]` };
      }
      const same = actual.length === f.recordedTools.length && actual.every((t, i) => t === f.recordedTools[i]);
      return {
        passed: same,
        detail: same ? 'same tool sequence as recorded' : `tool sequence [${actual.join(', ')}], recorded [${f.recordedTools.join(', ')}]`,
      };
    }
    case 'llm_judge':
      // Graded by the judge (judge.ts) after the other checks; this stands when the attempt was not judged.
      return { passed: false, detail: f.error !== null ? `not judged: ${f.error}` : 'not judged' };
    case 'max_steps':
      return f.steps <= c.limit
        ? { passed: true, detail: `${f.steps} step(s), limit ${c.limit}` }
        : { passed: false, detail: `${f.steps} step(s) exceed the limit of ${c.limit}` };
  }
}
