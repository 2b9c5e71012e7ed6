// Generated pairs of requests sharing one Idempotency-Key: a first request, then a second that is the same or differs in
// its path (another resource or another route), method, query string, body or project. A second request that differs is
// never answered from the key's record (no Idempotent-Replayed, nothing of the first answer, no 5xx); one that is the
// same is, with any secret withheld. RTS_FUZZ_RUNS / RTS_FUZZ_SEED change the cases and the seed.
import * as fc from 'fast-check';
import { createProject } from '../../functions/core/auth';
import { systemClock } from '../../functions/core/time';
import { getDeps } from '../../functions/wiring/deps';
import { headerValue } from '../helpers/fuzz-request-arbitraries';
import { fuzzSettings } from '../helpers/fuzz-harness';
import { errorShapeProblems } from '../helpers/fuzz-checks';
import { recordedCampaign, sampleTrace, uuid } from '../helpers/fixtures';
import { startTestService, type ApiResponse, type TestService } from '../helpers/local-service';

const { numRuns, seed } = fuzzSettings(40);
const TEST_TIMEOUT_MS = 180_000;
/** Resources of each kind per project, so a second request can name another one of the same route. */
const PER_KIND = 2;

interface Project {
  headers: Record<string, string>;
  webhooks: string[];
  campaigns: string[];
  traces: string[];
}

/** One request as the property describes it: which project, route and resource, with which method, query and body. */
interface Shape {
  project: number;
  route: number;
  resource: number;
  method: string;
  query: string;
  /** Index of the body variant of the route (routes without a body: 0 sends none). */
  body: number;
}

interface RouteSpec {
  name: string;
  path: (p: Project, resource: number) => string;
  /** The body variants a request may carry; undefined sends none. */
  bodies: (owner: Project, variant: number, tag: string) => unknown;
  /** Fields of a first answer that only that request can have produced. */
  fresh: string[];
  /** Fields a replay withholds. */
  secret?: boolean;
}

const ROUTES: RouteSpec[] = [
  {
    name: 'rotate-secret',
    path: (p, i) => `/v1/webhooks/${p.webhooks[i]}/rotate-secret`,
    bodies: (_p, v) => (v === 0 ? undefined : { note: `variant ${v}` }),
    fresh: ['secret'],
    secret: true,
  },
  {
    name: 'webhook test',
    path: (p, i) => `/v1/webhooks/${p.webhooks[i]}/test`,
    bodies: (_p, v) => (v === 0 ? undefined : [v]),
    fresh: ['delivery_id'],
  },
  {
    name: 'run-pack',
    path: (p, i) => `/v1/campaigns/${p.campaigns[i]}/run-pack`,
    bodies: (p, v) => ({ trace_ids: [p.traces[v % p.traces.length]] }),
    fresh: ['pack_id', 'run_ids'],
  },
  { name: 'campaigns', path: () => '/v1/campaigns', bodies: (_p, v, tag) => recordedCampaign({ name: `fuzz ${tag} ${v}` }), fresh: ['campaign_id'] },
  {
    name: 'webhooks',
    path: () => '/v1/webhooks',
    bodies: (_p, v, tag) => ({ url: `https://example.com/fuzz/${tag}/${v}`, events: ['run.completed'] }),
    fresh: ['webhook_id', 'secret'],
    secret: true,
  },
];

let svc: TestService;
const projects: Project[] = [];
let cases = 0;

beforeAll(async () => {
  svc = await startTestService({ deliverWebhooks: false });
  const other = await createProject({ projects: getDeps().projects, clock: systemClock }, { name: 'fuzz other' });
  const credentials = [svc.authHeaders, { 'X-API-Key': other.api_key, 'X-Project-Id': other.project_id }];
  for (const headers of credentials) {
    const p: Project = { headers, webhooks: [], campaigns: [], traces: [] };
    const call = (path: string, body: unknown) => svc.api('POST', path, body, headers);
    for (let i = 0; i < PER_KIND; i++) {
      p.webhooks.push((await call('/v1/webhooks', { url: `https://example.com/seed/${uuid()}`, events: ['*'] })).body.webhook_id);
      p.campaigns.push((await call('/v1/campaigns', recordedCampaign({ name: `seed ${i}` }))).body.campaign_id);
      p.traces.push((await call('/v1/traces', sampleTrace({ name: `seed trace ${i}` }))).body.trace_id);
    }
    projects.push(p);
  }
}, 60_000);
afterAll(async () => {
  await svc?.stop();
});

const firstShape: fc.Arbitrary<Shape> = fc.record({
  project: fc.integer({ min: 0, max: 1 }),
  route: fc.integer({ min: 0, max: ROUTES.length - 1 }),
  resource: fc.integer({ min: 0, max: PER_KIND - 1 }),
  method: fc.constant('POST'),
  query: fc.constant(''),
  body: fc.integer({ min: 0, max: 2 }),
});

const PARTS = ['project', 'route', 'resource', 'method', 'query', 'body'] as const;
type Part = (typeof PARTS)[number];

/** Another value of one part of a request: always different from the first's. */
const changed = (first: Shape, part: Part): fc.Arbitrary<Partial<Shape>> => {
  const other = (value: number, count: number) => fc.integer({ min: 1, max: count - 1 }).map((d) => (value + d) % count);
  switch (part) {
    case 'project':
      return fc.constant({ project: 1 - first.project });
    case 'route':
      return other(first.route, ROUTES.length).map((route) => ({ route }));
    case 'resource':
      return other(first.resource, PER_KIND).map((resource) => ({ resource }));
    case 'method':
      return fc.constantFrom('GET', 'PATCH', 'PUT', 'DELETE').map((method) => ({ method }));
    case 'query':
      return fc.constantFrom('?force=true', '?a=1&b=2', '?limit=5').map((query) => ({ query }));
    case 'body':
      return other(first.body, 3).map((body) => ({ body }));
  }
};

/**
 * The second request: the first again, or with one part changed (most cases: each part alone is what must tell two
 * requests apart), or with several.
 */
const secondShape = (first: Shape): fc.Arbitrary<Shape> =>
  fc
    .oneof(
      { arbitrary: fc.constant<Part[]>([]), weight: 1 },
      { arbitrary: fc.constantFrom(...PARTS).map((part) => [part]), weight: 7 },
      { arbitrary: fc.subarray([...PARTS], { minLength: 2 }), weight: 2 },
    )
    .chain((parts) => (parts.length ? fc.tuple(...parts.map((part) => changed(first, part))) : fc.constant<Partial<Shape>[]>([])))
    .map((changes: Partial<Shape>[]): Shape => Object.assign({ ...first }, ...changes));

interface Sent {
  path: string;
  body: string | undefined;
  projectIndex: number;
  method: string;
}

/** The request of a shape; paths and bodies name the resources of `owner` (the first request's project). */
function describeRequest(shape: Shape, owner: Project, tag: string): Sent {
  const route = ROUTES[shape.route];
  const body = route.bodies(owner, shape.body, tag);
  return {
    path: route.path(owner, shape.resource) + shape.query,
    body: body === undefined ? undefined : JSON.stringify(body),
    projectIndex: shape.project,
    method: shape.method,
  };
}

async function send(req: Sent, key: string): Promise<ApiResponse> {
  const headers: Record<string, string> = { ...projects[req.projectIndex].headers, 'Idempotency-Key': key };
  if (req.body !== undefined) headers['Content-Type'] = 'application/json';
  return svc.raw(req.method, req.path, { headers, body: req.method === 'GET' ? undefined : req.body });
}

/** Values only the first request's action produced (a secret, a created id, a pack, runs, a delivery). */
function freshValues(route: RouteSpec, res: ApiResponse): string[] {
  if (res.status >= 300 || !res.body || typeof res.body !== 'object') return [];
  return route.fresh.flatMap((f) => {
    const v = res.body[f];
    return Array.isArray(v) ? v.map(String) : typeof v === 'string' ? [v] : [];
  });
}

/** What is wrong with the second answer, given the first; empty when it is right. */
function problems(first: { sent: Sent; res: ApiResponse }, second: { sent: Sent; res: ApiResponse }, route: RouteSpec): string[] {
  const out: string[] = [];
  const { res } = second;
  const same = first.sent.path === second.sent.path && first.sent.body === second.sent.body;
  const identical = same && first.sent.method === second.sent.method && first.sent.projectIndex === second.sent.projectIndex;
  const replayed = res.headers.get('idempotent-replayed') === 'true';
  if (res.status >= 500) out.push(`answered ${res.status}: ${res.text.slice(0, 200)}`);
  if (res.status >= 400) out.push(...errorShapeProblems(res.status, res.text));
  if (identical) {
    if (!replayed) out.push(`the same request again was not replayed (${res.status})`);
    const expected = route.secret && first.res.status < 300 ? { ...first.res.body, secret: null, secret_withheld: true } : first.res.body;
    if (res.status !== first.res.status || JSON.stringify(res.body) !== JSON.stringify(expected))
      out.push('the replay differs from the first answer');
    if (route.secret && first.res.body?.secret && res.text.includes(first.res.body.secret)) out.push('the replay holds the secret');
    return out;
  }
  if (replayed) out.push(`a different request was answered from the key's record (${res.status})`);
  // A read (a listing) may show what the first request created; an action must not answer with it.
  if (second.sent.method === 'POST') {
    for (const value of freshValues(route, first.res)) if (res.text.includes(value)) out.push(`the answer holds ${value} of the first answer`);
  }
  if (res.status === 409 && res.body?.error?.code === 'idempotency_conflict' && second.sent.method !== 'POST') {
    out.push('a non-POST request was held to the key');
  }
  return out;
}

describe('Idempotency-Key reused across paths, methods, query strings, bodies and projects (generated)', () => {
  it(
    'never replays an answer to a request that differs from the first, and always replays the same request, without its secret',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          firstShape.chain((first) => fc.tuple(fc.constant(first), secondShape(first), headerValue(1, 40))),
          async ([firstS, secondS, keyTail]) => {
            // A key of this case only: earlier cases must not have used it.
            const key = `${++cases}:${keyTail}`.slice(0, 255);
            const tag = uuid();
            const owner = projects[firstS.project];
            const first = { sent: describeRequest(firstS, owner, tag), res: undefined as unknown as ApiResponse };
            first.res = await send(first.sent, key);
            if (first.res.status >= 500) throw new Error(`first request answered ${first.res.status}: ${first.res.text.slice(0, 200)}`);
            const second = { sent: describeRequest(secondS, owner, tag), res: undefined as unknown as ApiResponse };
            second.res = await send(second.sent, key);
            const found = problems(first, second, ROUTES[firstS.route]);
            // Keep the project under the webhook limit: webhooks this case created go again.
            for (const { sent, res } of [first, second]) {
              if (sent.path.startsWith('/v1/webhooks') && res.status === 201 && !res.headers.get('idempotent-replayed')) {
                await svc.raw('DELETE', `/v1/webhooks/${res.body.webhook_id}`, { headers: projects[sent.projectIndex].headers });
              }
            }
            if (found.length) {
              throw new Error(
                `${found.join('; ')}\nfirst: ${first.sent.method} ${first.sent.path} -> ${first.res.status}\nsecond: ${second.sent.method} ${second.sent.path} -> ${second.res.status} ${second.res.text.slice(0, 300)}`,
              );
            }
          },
        ),
        { numRuns, seed, interruptAfterTimeLimit: TEST_TIMEOUT_MS - 30_000 },
      );
    },
    TEST_TIMEOUT_MS,
  );
});
