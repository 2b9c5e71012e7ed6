// Fuzz bench: the properties of test/integration/fuzz.test.ts with many more cases (RTS_FUZZ_RUNS per property,
// default 600; RTS_FUZZ_SEED; RTS_FUZZ_ONLY), counting instead of stopping: inputs, responses by status class, 5xx, time.
import * as fc from 'fast-check';
import { FuzzWorld, fuzzSettings, runsOf, tryInput, type FuzzOutcome } from '../helpers/fuzz-harness';
import { PROPERTIES } from '../helpers/fuzz-properties';
import { startTestService } from '../helpers/local-service';

export interface FuzzPropertyFigures {
  title: string;
  inputs: number;
  requests: number;
  byClass: Record<string, number>;
  byStatus: Record<number, number>;
  fiveXx: number;
  retryable503: number;
  problems: number;
  examples: string[];
  elapsedMs: number;
  slowestMs: number;
}

export interface FuzzBench {
  seed: number;
  oversize: boolean;
  properties: FuzzPropertyFigures[];
  foreignChanges: string;
  elapsedMs: number;
}

/** Shortens a line for the console: runs of one character folded, at most 700 characters. */
function compact(s: string): string {
  const folded = s.replace(/(.)\1{15,}/g, (run, c: string) => `${c}{x${run.length}}`);
  return folded.length > 700 ? `${folded.slice(0, 700)}...` : folded;
}

const classOf = (o: FuzzOutcome) => (o.status === 0 ? 'none' : `${Math.floor(o.status / 100)}xx`);

export async function benchFuzz(): Promise<FuzzBench> {
  const { numRuns, seed } = fuzzSettings(600);
  const started = performance.now();
  const svc = await startTestService({ deliverWebhooks: false });
  try {
    // Over-limit request lines and headers are counted here (RTS_FUZZ_OVERSIZE=0 leaves them out).
    const world = await FuzzWorld.create(svc, { timeoutMs: 10_000, oversize: process.env.RTS_FUZZ_OVERSIZE !== '0' });
    const properties: FuzzPropertyFigures[] = [];
    // RTS_FUZZ_ONLY=bodies,headers runs the properties whose titles contain one of the words.
    const only = (process.env.RTS_FUZZ_ONLY ?? '').split(',').filter(Boolean);
    for (const property of PROPERTIES.filter((p) => !only.length || only.some((w) => p.title.includes(w)))) {
      await world.restoreOwn();
      const t0 = performance.now();
      const figures: FuzzPropertyFigures = {
        title: property.title,
        inputs: 0,
        requests: 0,
        byClass: {},
        byStatus: {},
        fiveXx: 0,
        retryable503: 0,
        problems: 0,
        examples: [],
        elapsedMs: 0,
        slowestMs: 0,
      };
      // Sampled in chunks so that thousands of large inputs are never all held in memory at once.
      const seen = new Set<string>();
      const runs = runsOf(property, numRuns);
      for (let done = 0; done < runs; done += 100) {
        const inputs = fc.sample(property.arbitrary(world), { numRuns: Math.min(100, runs - done), seed: seed + done });
        for (const input of inputs) {
          const { outcomes, problems } = await tryInput(world, property, input, { allowRetryable503: true });
          figures.inputs++;
          figures.requests += outcomes.length;
          for (const o of outcomes) {
            figures.byClass[classOf(o)] = (figures.byClass[classOf(o)] ?? 0) + 1;
            figures.byStatus[o.status] = (figures.byStatus[o.status] ?? 0) + 1;
            if (o.status >= 500) figures.fiveXx++;
            if (o.status === 503 && o.retryAfter !== null) figures.retryable503++;
            figures.slowestMs = Math.max(figures.slowestMs, o.ms);
          }
          figures.problems += problems.length;
          // One example per kind of problem (what went wrong, without the request, ids, bodies and numbers).
          for (const problem of problems) {
            const kind = problem
              .replace(/; body ".*$/, '')
              .replace(/^.*? -> /, '')
              .replace(/[0-9a-f-]{36}|\d+/g, '#');
            if (seen.has(kind) || figures.examples.length >= 8) continue;
            seen.add(kind);
            figures.examples.push(`${compact(problem)}\n    input: ${compact(fc.stringify(input))}`);
          }
        }
      }
      figures.elapsedMs = performance.now() - t0;
      properties.push(figures);
    }
    const foreignChanges = await world.foreignChanges();
    return { seed, oversize: world.options.oversize, properties, foreignChanges, elapsedMs: performance.now() - started };
  } finally {
    await svc.stop();
  }
}

export function printFuzz(r: FuzzBench): void {
  console.log(`\n== Fuzz: generated input on every route (seed ${r.seed}${r.oversize ? ', with request lines and headers over 16 KiB' : ''}) ==`);
  let inputs = 0;
  let requests = 0;
  let fiveXx = 0;
  let problems = 0;
  for (const p of r.properties) {
    inputs += p.inputs;
    requests += p.requests;
    fiveXx += p.fiveXx;
    problems += p.problems;
    const classes = Object.entries(p.byClass)
      .sort()
      .map(([k, v]) => `${k} ${v}`)
      .join(', ');
    const statuses = Object.entries(p.byStatus)
      .map(([k, v]) => `${k}:${v}`)
      .join(' ');
    console.log(
      `${p.title.padEnd(40)} ${String(p.inputs).padStart(5)} inputs ${String(p.requests).padStart(6)} requests in ${(p.elapsedMs / 1000).toFixed(1)} s ` +
        `(${(p.requests / (p.elapsedMs / 1000)).toFixed(0)} req/s, slowest ${p.slowestMs.toFixed(0)} ms); ${classes}; 5xx ${p.fiveXx}` +
        `${p.retryable503 ? ` (503 with Retry-After ${p.retryable503})` : ''}; problems ${p.problems}`,
    );
    console.log(`${''.padEnd(40)} statuses ${statuses}`);
    for (const e of p.examples) console.log(`  ! ${e}`);
  }
  console.log(`total: ${inputs} inputs, ${requests} requests, 5xx ${fiveXx}, problems ${problems}, ${(r.elapsedMs / 1000).toFixed(1)} s`);
  console.log(`other project's data after the run: ${r.foreignChanges || 'unchanged'}`);
}
