// Generated input aimed at regex blow-ups: long runs of whitespace and separators in every free-text field of a
// trace (then replayed by a recorded campaign while /health is polled), and user patterns with large repetition
// counts (refused with 422 naming the field, or matched within a bound). RTS_FUZZ_RUNS / RTS_FUZZ_SEED as in
// fuzz.test.ts.
import * as fc from 'fast-check';
import { SecurityMonitor } from '../../functions/core/replay/detectors/monitor';
import { compilePattern, PATTERN_PROGRAM_MAX, PATTERN_TEXT_MAX, PATTERN_WORK_MAX } from '../../functions/core/replay/pattern';
import { fuzzSettings } from '../helpers/fuzz-harness';
import { startTestService, type TestService } from '../helpers/local-service';

const { numRuns, seed } = fuzzSettings(25);
/** Service-level cases each replay a run of several hundred KB: a few of them, the core-level properties take the rest. */
const serviceRuns = Math.max(2, Math.ceil(numRuns / 8));
const HEALTH_BOUND_MS = 1000;
/** One field through every detector, or one user pattern on a 200 KB text: generous, the freezes were seconds. */
const SCAN_BOUND_MS = 400;

/** Units whose long runs made the old patterns backtrack: whitespace, newlines, separators, near-misses. */
const RUN_UNITS = [' ', '\n', '\t', '\r\n', '\u00a0', '\u2028', '.', '-', '_', '@', ':', '/', 'a.', 'a-', 'eyJ-', 'ghp_', 'sk-', '<', '\n system'];
const TRIGGERS = ['', 'system', 'system:', 'SYSTEM', '@evil.test', 'x', 'ignore previous instructions', '-----BEGIN RSA PRIVATE KEY-----'];

/** A run of 10,000-60,000 repeats of one unit, between two short pieces of text. */
const hostileRun = fc
  .record({
    unit: fc.constantFrom(...RUN_UNITS),
    count: fc.integer({ min: 10_000, max: 60_000 }),
    before: fc.constantFrom(...TRIGGERS),
    after: fc.constantFrom(...TRIGGERS),
  })
  .map(({ unit, count, before, after }) => `${before}${unit.repeat(count)}${after}`);

/** A short ordinary text, or a hostile run: each field gets its own. */
const freeText = fc.oneof({ weight: 1, arbitrary: fc.constantFrom('ok', 'Order 1234 is delivered.') }, { weight: 3, arbitrary: hostileRun });

/** A trace whose every free-text field (system, user, tool argument, tool result, tool error, final output) is drawn. */
const hostileTrace = fc
  // A tool error holds at most 10,000 characters (the trace schema's limit).
  .record({
    system: freeText,
    user: freeText,
    argument: freeText,
    result: freeText,
    error: freeText.map((t) => t.slice(0, 10_000)),
    output: freeText,
  })
  .map((f) => ({
    name: 'hostile runs',
    tools: [{ name: 'fetch_page', description: 'Read a page', parameters: { type: 'object', properties: { q: { type: 'string' } } } }],
    steps: [
      { role: 'system', content: f.system },
      { role: 'user', content: f.user },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', name: 'fetch_page', arguments: { q: f.argument } }] },
      { role: 'tool', tool_call_id: 'c1', name: 'fetch_page', content: { body: f.result } },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c2', name: 'fetch_page', arguments: { q: 'again' } }] },
      { role: 'tool', tool_call_id: 'c2', name: 'fetch_page', error: f.error },
      { role: 'assistant', content: f.output },
    ],
  }));

/** User patterns with large repetition counts, nested repeats and wide alternations. */
const bigPattern = fc
  .record({
    atom: fc.constantFrom('(a|b)', '[ab]', '(?:\\w|\\s)', 'a?', '.', '(?:(a)|(b))', '(?i)x', '(?:a{1,3}|b)'),
    count: fc.oneof(fc.integer({ min: 1, max: 60 }), fc.integer({ min: 60, max: 1000 })),
    outer: fc.option(fc.integer({ min: 2, max: 50 }), { nil: undefined }),
    tail: fc.constantFrom('[cd]', '$', 'c', ''),
  })
  .map(({ atom, count, outer, tail }) => (outer ? `(?:${atom}{${count}}){${outer}}${tail}` : `${atom}{${count}}${tail}`));

const timed = (fn: () => void): number => {
  const start = performance.now();
  fn();
  return performance.now() - start;
};

describe('detectors on generated runs of whitespace and separators', () => {
  it('scan every field of a generated trace within the bound', () => {
    fc.assert(
      fc.property(hostileTrace, (trace) => {
        const m = new SecurityMonitor(
          { detectors: new Set(['prompt_injection', 'secret_leak', 'exfiltration']), allowedDomains: [], injection: null, baitCanary: null },
          () => undefined,
        );
        for (const step of trace.steps) {
          const ms = timed(() => {
            if (step.role === 'tool') m.onToolResult(1, 'fetch_page', step.content ?? { error: step.error }, false);
            else if (step.tool_calls) for (const c of step.tool_calls) m.onToolCall(1, c, JSON.stringify(c.arguments), false);
            else if (typeof step.content === 'string') m.onOutput(1, step.content);
          });
          expect(ms).toBeLessThan(SCAN_BOUND_MS);
        }
      }),
      { numRuns, seed },
    );
  });
});

describe('user patterns with large repetition counts', () => {
  const text = 'ab'.repeat(100 * 1024);
  it('either compile within the program limit and match 200 KB within the bound, or are refused', () => {
    fc.assert(
      fc.property(bigPattern, (source) => {
        const pattern = compilePattern(source);
        if (pattern === null) return;
        expect(timed(() => pattern.test(text))).toBeLessThan(SCAN_BOUND_MS);
        // compiled within the program limit, so it reads at least PATTERN_WORK_MAX / PATTERN_PROGRAM_MAX characters
        expect(pattern.textLimit).toBeGreaterThanOrEqual(Math.floor(PATTERN_WORK_MAX / PATTERN_PROGRAM_MAX));
        expect(pattern.textLimit).toBeLessThanOrEqual(PATTERN_TEXT_MAX);
      }),
      { numRuns: numRuns * 2, seed },
    );
  });
});

describe('the local service on generated hostile traces and patterns', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService({ deliverWebhooks: false });
  });
  afterAll(async () => {
    await svc.stop();
  });

  it('answers campaign creation with 201 or a 422 naming the pattern, never a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(bigPattern, async (pattern) => {
        const res = await svc.api('POST', '/v1/campaigns', {
          name: 'fuzz',
          target: { type: 'recorded' },
          criteria: [{ type: 'output_matches', pattern }],
        });
        if (res.status === 201) return;
        expect(res.status).toBe(422);
        expect(res.body.error.code).toBe('validation_error');
        expect(res.body.error.details[0].path).toBe('criteria.0.pattern');
      }),
      { numRuns, seed },
    );
  }, 120_000);

  it('replays generated hostile traces with a recorded campaign to completion, /health answering within 1 s', async () => {
    const campaign = await svc.api('POST', '/v1/campaigns', { name: 'audit', target: { type: 'recorded' } });
    expect(campaign.status).toBe(201);
    await fc.assert(
      fc.asyncProperty(hostileTrace, async (trace) => {
        const uploaded = await svc.api('POST', '/v1/traces', trace);
        expect(uploaded.status).toBe(201);
        const run = await svc.api('POST', '/v1/runs', { trace_id: uploaded.body.trace_id, campaign_id: campaign.body.campaign_id });
        expect(run.status).toBe(202);
        let status = run.body.status as string;
        while (status !== 'completed' && status !== 'failed') {
          const start = performance.now();
          expect((await svc.raw('GET', '/health')).status).toBe(200);
          expect(performance.now() - start).toBeLessThan(HEALTH_BOUND_MS);
          status = (await svc.api('GET', `/v1/runs/${run.body.run_id}`)).body.status;
        }
        expect(status).toBe('completed');
      }),
      { numRuns: serviceRuns, seed },
    );
  }, 180_000);
});
