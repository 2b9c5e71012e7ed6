// Generated hostile input on every route of lib/routes.ts ("no 5xx from any input"): no 5xx, no hang, the
// API's error body on every non-2xx, and never another project's data. RTS_FUZZ_RUNS / RTS_FUZZ_SEED (a number, or
// "random") change the cases per property and the seed, RTS_FUZZ_OVERSIZE=0 leaves out request lines and headers
// over Node's 16 KiB limit; `npm run bench -- fuzz` runs thousands.
import * as fc from 'fast-check';
import { FuzzWorld, fuzzSettings, runsOf, tryInput, type FuzzOutcome, type FuzzProperty } from '../helpers/fuzz-harness';
import {
  PROPERTIES,
  arbitraryBodies,
  concurrentCopies,
  foreignIds,
  oddHeaders,
  oddPathsAndQueries,
  validBodyMutations,
} from '../helpers/fuzz-properties';
import { startTestService, type TestService } from '../helpers/local-service';
import { routes } from '../../lib/routes';

const { numRuns, seed } = fuzzSettings(25);
const TEST_TIMEOUT_MS = 120_000;
/** Bounds one property's runs and shrinking: the runs take seconds, so this only cuts a long shrink short. */
const PROPERTY_BUDGET_MS = 60_000;

let svc: TestService;
let world: FuzzWorld;

beforeAll(async () => {
  svc = await startTestService({ deliverWebhooks: false });
  world = await FuzzWorld.create(svc, { timeoutMs: 10_000 });
}, 60_000);
afterAll(async () => {
  await svc?.stop();
});

/** fc.assert over one property: each case's requests go out, and any problem fails it with the counterexample. */
async function holds(property: FuzzProperty): Promise<void> {
  await world.restoreOwn();
  await fc.assert(
    fc.asyncProperty(property.arbitrary(world), async (input) => {
      const { problems } = await tryInput(world, property, input);
      if (problems.length) throw new Error(`${problems.length} bad response(s):\n${problems.slice(0, 5).join('\n')}`);
    }),
    // Shrinking sends every smaller candidate again; past the budget the smallest failure found so far is reported.
    { numRuns: runsOf(property, numRuns), seed, interruptAfterTimeLimit: PROPERTY_BUDGET_MS },
  );
}

describe('every route', () => {
  it('is fuzzed: the properties send requests to every row of lib/routes.ts', () => {
    const covered = new Set(
      PROPERTIES.flatMap((p) => fc.sample(p.arbitrary(world), { numRuns: 1, seed }).flatMap((input) => p.requests(world, input).map((r) => r.route))),
    );
    expect(covered.size).toBe(routes.length);
  });

  it('never answers 5xx, hangs or breaks the error body on arbitrary JSON bodies', () => holds(arbitraryBodies), TEST_TIMEOUT_MS);

  it('never answers 5xx, hangs or breaks the error body on mutations of valid bodies', () => holds(validBodyMutations), TEST_TIMEOUT_MS);

  it('never answers 5xx to odd headers, and never 2xx without valid credentials', () => holds(oddHeaders), TEST_TIMEOUT_MS);

  it('never answers 5xx to odd path ids, methods and query strings', () => holds(oddPathsAndQueries), TEST_TIMEOUT_MS);

  it(
    'never answers 5xx to the same request several times at once, and copies sharing an Idempotency-Key get one answer',
    () => holds(concurrentCopies),
    TEST_TIMEOUT_MS,
  );
});

describe('project isolation', () => {
  it("never returns another project's ids, names or contents, whatever ids the caller sends", () => holds(foreignIds), TEST_TIMEOUT_MS);

  it("leaves the other project's data unchanged after all of the above", async () => {
    expect(await world.foreignChanges()).toBe('');
  });
});

describe('the checks', () => {
  const outcome = (status: number, text: string, contentType = 'application/json'): FuzzOutcome => ({
    request: { route: routes[0], method: routes[0].method, path: routes[0].path, headers: {}, authorized: true },
    status,
    retryAfter: null,
    contentType,
    text,
    ms: 1,
  });
  const errorBody = (extra = '') => `{"error":{"code":"not_found","message":"Trace not found.","request_id":"r-1"${extra}}}`;

  it('accept the error body of docs/api.md#errors ({error: {code, message, request_id, details?}}) and flag every way of breaking it', () => {
    expect(world.problems([outcome(404, errorBody())])).toEqual([]);
    expect(world.problems([outcome(404, errorBody(',"details":[{"path":"a","message":"b"}]'))])).toEqual([]);
    const broken: [FuzzOutcome, RegExp][] = [
      [outcome(500, '{"error":{"code":"internal_error","message":"x","request_id":"r"}}'), /-> 500: answered 500; body/],
      [outcome(404, '<html>'), /-> 404: non-JSON error body "<html>"; body/],
      [outcome(404, errorBody(), 'text/html'), /-> 404: error with Content-Type "text\/html"; body/],
      [outcome(404, `{"error":{"code":"not_found","message":"m"}}`), /-> 404: error\.request_id is not a non-empty string; body/],
      [outcome(404, `${errorBody().slice(0, -1)},"stack":"x"}`), /-> 404: top-level keys \["error","stack"\] instead of \["error"\]; body/],
      [outcome(404, errorBody(',"details":"x"')), /-> 404: error\.details is not an array; body/],
      [outcome(401, errorBody()), /-> 401: error\.code not_found does not belong to status 401; body/],
    ];
    for (const [bad, problem] of broken) {
      expect([bad.status, bad.text, world.problems([bad])]).toEqual([bad.status, bad.text, [expect.stringMatching(problem)]]);
    }
  });

  it("flag the other project's ids and names unless the caller sent them", () => {
    const [id] = world.foreign.ids.run_id;
    expect(world.problems([outcome(200, JSON.stringify({ items: [{ trace_id: id }] }))])[0]).toMatch(/leaks the other project's id/);
    expect(world.problems([outcome(200, JSON.stringify({ name: world.foreign.secrets[0] }))])[0]).toMatch(/leaks the other project's/);
    const echoed = outcome(404, errorBody());
    echoed.request.path = `/v1/runs/${id}`;
    echoed.text = errorBody(`,"details":[{"path":"run_id","message":"${id}"}]`);
    expect(world.problems([echoed])).toEqual([]);
  });

  it('take an id the own project wrote into its own data as its own, never one it referred to', () => {
    // Runs last: what a check adopts stays adopted for the world's later batches.
    const [written] = world.foreign.ids.campaign_id;
    const [referred] = world.foreign.ids.trace_id;
    const write = (body: unknown): FuzzOutcome => ({
      ...outcome(201, '{"trace_id":"00000000-0000-4000-8000-000000000000"}'),
      request: { route: routes[0], method: 'POST', path: '/v1/traces', headers: {}, body: JSON.stringify(body), authorized: true },
    });
    const listing = (id: string) => outcome(200, JSON.stringify({ items: [{ metadata: { [id]: 1 }, trace_id: id }] }));

    expect(world.problems([write({ metadata: { [written]: { a: 1 } } }), write({ trace_id: referred })])).toEqual([]);
    expect(world.problems([listing(written)])).toEqual([]);
    expect(world.problems([listing(referred)])[0]).toMatch(/leaks the other project's id/);
  });
});
