// The demo agent's plans: the sample conversations it knows, and which one a (maybe mistyped) first message means.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { traceInputSchema, type TraceInput } from '../../core/traces/schema';

/** One tool call the agent plans to make. */
export interface PlannedCall {
  name: string;
  arguments: Record<string, unknown>;
}

/** What the agent replays for one user message: its tool-call turns, then its final answer. */
export interface DemoSegment {
  turns: PlannedCall[][];
  final: string;
}

/**
 * A sample conversation reduced to what the agent replays: for the first user message its tool-call turns and final
 * answer, and the same for each later user message of a conversation of several turns (`followUps`).
 */
export interface DemoPlan extends DemoSegment {
  userText: string;
  normalised: string;
  grams: Set<string>;
  followUps: DemoSegment[];
}

/** Loads and validates every *.json trace of a folder (default: the shipped samples/traces), in file-name order. */
export function loadSampleTraces(dir = findSamplesDir()): TraceInput[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => {
      const parsed = traceInputSchema.safeParse(JSON.parse(readFileSync(path.join(dir, f), 'utf8')));
      if (!parsed.success) throw new Error(`${f} is not a valid trace: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
      return parsed.data;
    });
}

// The module runs from source (tsx, ts-jest) and possibly from a compiled dist/ tree, so look in both places.
function findSamplesDir(): string {
  const candidates = [
    path.resolve(__dirname, '../../../samples/traces'),
    path.resolve(__dirname, '../../../../samples/traces'),
    path.resolve(process.cwd(), 'samples/traces'),
  ];
  const found = candidates.find((c) => existsSync(c));
  if (!found) throw new Error(`sample traces not found (looked in ${candidates.join(', ')})`);
  return found;
}

/** Plans of the given traces (traces without a user message are skipped); plans given as such are kept. */
export function toPlans(items: DemoPlan[] | TraceInput[]): DemoPlan[] {
  return items.flatMap((item) => ('steps' in item ? (buildPlan(item) ?? []) : [item]));
}

function buildPlan(trace: TraceInput): DemoPlan | null {
  const user = trace.steps.find((s) => s.role === 'user');
  if (user?.role !== 'user') return null;
  // A user message after an assistant step opens the next segment, as a replay opens the next turn.
  const segments: DemoSegment[] = [{ turns: [], final: '' }];
  let answered = false;
  for (const step of trace.steps) {
    if (step.role === 'user' && answered) {
      segments.push({ turns: [], final: '' });
      answered = false;
    }
    if (step.role !== 'assistant') continue;
    answered = true;
    const segment = segments[segments.length - 1]!;
    if (step.tool_calls && step.tool_calls.length > 0) {
      segment.turns.push(step.tool_calls.map((c) => ({ name: c.name, arguments: c.arguments })));
    } else if (step.content) {
      segment.final = step.content;
    }
  }
  const [first, ...followUps] = segments.map((s) => ({ turns: s.turns, final: s.final || 'Done.' }));
  const normalised = normalise(user.content);
  return { userText: user.content, normalised, grams: trigrams(normalised), ...first!, followUps };
}

function normalise(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s]/gu, '')
    .replace(/\s+/g, ' ')
    .trim();
}

// Character trigrams survive typos far better than whole tokens: one wrong letter costs three grams, not a word.
function trigrams(normalisedText: string): Set<string> {
  const grams = new Set<string>();
  for (const word of normalisedText.split(' ')) {
    const padded = ` ${word} `;
    for (let i = 0; i + 3 <= padded.length; i++) grams.add(padded.slice(i, i + 3));
  }
  return grams;
}

const MIN_SIMILARITY = 0.4;

/**
 * Which known conversation a first user message belongs to: exact, then normalised, then the closest by trigram
 * overlap (Dice coefficient of at least 0.4); null when none is close enough.
 */
export function matchPlan(plans: DemoPlan[], userText: string): DemoPlan | null {
  const exact = plans.find((p) => p.userText === userText);
  if (exact) return exact;
  const normalised = normalise(userText);
  const same = plans.find((p) => p.normalised === normalised);
  if (same) return same;
  const grams = trigrams(normalised);
  let best: DemoPlan | null = null;
  let bestScore = 0;
  for (const plan of plans) {
    let shared = 0;
    for (const g of grams) if (plan.grams.has(g)) shared++;
    const score = (2 * shared) / (grams.size + plan.grams.size || 1);
    if (score > bestScore) {
      best = plan;
      bestScore = score;
    }
  }
  return bestScore >= MIN_SIMILARITY ? best : null;
}
