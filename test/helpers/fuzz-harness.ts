// The fuzz harness: two projects seeded on a running local service (fuzz-seed.ts), the valid bodies the properties
// start from, sending their requests, and the checks every response must pass (no 5xx, no hang, the API's error body:
// fuzz-checks.ts, no cross-project data). The properties themselves are in fuzz-properties.ts.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as fc from 'fast-check';
import { createProject } from '../../functions/core/auth';
import { systemClock } from '../../functions/core/time';
import { getDeps } from '../../functions/wiring/deps';
import { routes, type RouteRow } from '../../lib/routes';
import { recordedCampaign, sampleTrace } from './fixtures';
import { INTERNALS, errorShapeProblems, jsonRpcErrorProblems } from './fuzz-checks';
import { ownDataStrings } from './fuzz-own-data';
import { apiVocabulary, type Vocabulary } from './fuzz-arbitraries';
import { call, seedProject } from './fuzz-seed';
import type { TestService } from './local-service';
import { pathParams as paramsOf, routeName } from '../../functions/core/route-row';

export { routeName };
export const pathParams = (r: RouteRow) => paramsOf(r.path);
/** Routes whose requests carry a JSON body: every method but GET and DELETE. */
export const bodyRoutes = () => routes.filter((r) => r.method !== 'GET' && r.method !== 'DELETE');
export const paramNames = () => [...new Set(routes.flatMap((element) => pathParams(element)))];

export interface ProjectFixture {
  label: string;
  projectId: string;
  apiKey: string;
  /** Ids of the project's resources by path parameter name (trace_id, campaign_id, run_id, batch_id, webhook_id). */
  ids: Record<string, string[]>;
  /** next_cursor values of its listings. */
  cursors: string[];
  /** Idempotency-Key values it has used. */
  idempotencyKeys: string[];
  /** Strings only this project's data holds (names, contents, URLs, secrets, its API key). */
  secrets: string[];
}

export interface FuzzRequest {
  /** The route the request was generated for (its method or path may have been changed on purpose). */
  route: RouteRow;
  method: string;
  /** Path and query string, as sent. */
  path: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
  /** The credentials are exactly the fuzzing project's pair. */
  authorized: boolean;
}

export interface FuzzOutcome {
  request: FuzzRequest;
  /** 0 when no response came (timeout, connection failure). */
  status: number;
  retryAfter: string | null;
  contentType: string | null;
  text: string;
  ms: number;
  failure?: string;
}

export interface FuzzOptions {
  /** Per-request bound: a request without an answer by then is a hang. */
  timeoutMs: number;
  /** Requests in flight at once. */
  concurrency: number;
  /** Also generate request lines and headers over Node's 16 KiB limit (the gateway answers 431 with the error body). */
  oversize: boolean;
}

function bodyText(body: string | Uint8Array | undefined): string {
  if (body === undefined) return '';
  return typeof body === 'string' ? body : Buffer.from(body).toString('utf8');
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}

let fileTemplates: { otlp: unknown[]; httpCampaign: Record<string, unknown> } | undefined;

/** The OTLP fixtures and the sample campaign, read once. */
function templateFiles() {
  const otlpDir = join(__dirname, '..', 'fixtures', 'otlp');
  fileTemplates ??= {
    otlp: readdirSync(otlpDir)
      .filter((f) => f.endsWith('.json'))
      .sort()
      .map((f) => JSON.parse(readFileSync(join(otlpDir, f), 'utf8')) as unknown),
    httpCampaign: JSON.parse(readFileSync(join(__dirname, '..', '..', 'samples', 'campaign.json'), 'utf8')) as Record<string, unknown>,
  };
  return fileTemplates;
}

/** Valid bodies per route (route name -> templates), referencing the given ids; routes not listed get `{}`. */
export function validBodies(ids: Record<string, string>, tag: string): Record<string, unknown[]> {
  const { otlp, httpCampaign } = templateFiles();
  return {
    'POST /v1/traces': [sampleTrace({ name: `${tag} trace` }), sampleTrace({ trace_id: ids.trace_id, name: `${tag} trace` }), ...otlp],
    'POST /v1/campaigns': [
      recordedCampaign({ name: `${tag} campaign` }),
      { ...httpCampaign, target: { type: 'http', url: 'http://127.0.0.1:9/step', timeout_ms: 500 } },
    ],
    'PATCH /v1/campaigns/{campaign_id}/eval-set': [{ add_trace_ids: [ids.trace_id], min_scenarios: 1 }],
    'POST /v1/campaigns/{campaign_id}/run-pack': [{ trace_ids: [ids.trace_id] }, {}],
    'POST /v1/runs': [{ trace_id: ids.trace_id, campaign_id: ids.campaign_id }],
    'POST /v1/ci/runs': [
      {
        campaign_id: ids.campaign_id,
        thresholds: { min_pass_rate: 0.5, max_unsafe: 0, max_failures: 1 },
        metadata: { commit: 'abc123', branch: 'main', pipeline_url: 'https://ci.example.com/1' },
      },
      { campaign_id: ids.campaign_id, trace_id: ids.trace_id },
    ],
    'POST /v1/webhooks': [
      { url: 'https://example.com/hooks/rts', events: ['run.completed'], description: `${tag} hook` },
      { url: 'https://example.com/all', events: ['*'] },
    ],
    'PATCH /v1/webhooks/{webhook_id}': [
      { is_enabled: false, description: 'paused' },
      { url: 'https://example.com/other', events: ['*'], is_enabled: true },
    ],
  };
}

/** A property: how its inputs are generated, and the requests one input becomes (one or more per route). */
export interface FuzzProperty<T = any> {
  title: string;
  arbitrary(world: FuzzWorld): fc.Arbitrary<T>;
  requests(world: FuzzWorld, input: T): FuzzRequest[];
  /** Problems of this property's own, on top of the checks every response gets. */
  check?(outcomes: FuzzOutcome[]): string[];
  /** Share of the configured number of cases this property runs (its cases cost more). Default 1. */
  runsFactor?: number;
}

/** The service under fuzz, the project that fuzzes it (own) and the one whose data it must never see (foreign). */
export class FuzzWorld {
  readonly vocab: Vocabulary;
  /** Foreign ids the own project wrote and got back in a 2xx: it may now hold a resource of its own under that id. */
  private readonly adopted = new Set<string>();
  private snapshot?: string;

  constructor(
    readonly svc: TestService,
    readonly own: ProjectFixture,
    readonly foreign: ProjectFixture,
    readonly options: FuzzOptions,
  ) {
    this.vocab = apiVocabulary([...Object.values(own.ids).flat(), ...Object.values(foreign.ids).flat()]);
  }

  /** Seeds two projects on a running service: own (the service's bootstrap project) and foreign. */
  static async create(svc: TestService, options: Partial<FuzzOptions> = {}): Promise<FuzzWorld> {
    const opts: FuzzOptions = { timeoutMs: 10_000, concurrency: 8, oversize: process.env.RTS_FUZZ_OVERSIZE !== '0', ...options };
    const foreignProject = await createProject({ projects: getDeps().projects, clock: systemClock }, { name: 'fuzz-foreign' });
    const own = await seedProject(svc, 'own', svc.projectId, svc.apiKey, opts.timeoutMs);
    const foreign = await seedProject(svc, 'foreign', foreignProject.project_id, foreignProject.api_key, opts.timeoutMs);
    const world = new FuzzWorld(svc, own, foreign, opts);
    await svc.idle();
    world.snapshot = await world.foreignSnapshot();
    return world;
  }

  authHeaders(p: ProjectFixture): Record<string, string> {
    return { 'X-API-Key': p.apiKey, 'X-Project-Id': p.projectId };
  }

  /** The own project's id for a path parameter; DELETE gets the last (spare) one so the others stay usable. */
  ownId(param: string, method: string): string {
    const ids = this.own.ids[param] ?? [];
    return (method === 'DELETE' ? ids[ids.length - 1] : ids[0]) ?? '00000000-0000-4000-8000-000000000000';
  }

  concretePath(route: RouteRow, idFor: (param: string) => string): string {
    return route.path.replace(/\{([a-z_]+)\}/g, (_, p: string) => idFor(p));
  }

  templates(route: RouteRow, ids: Record<string, string>): unknown[] {
    return validBodies(ids, `${this.own.label}-${this.own.projectId.slice(0, 8)}`)[routeName(route)] ?? [{}];
  }

  ownRefs(): Record<string, string> {
    return Object.fromEntries(Object.keys(this.own.ids).map((p) => [p, this.own.ids[p][0]]));
  }

  /** Sends one request with a deadline; never throws. */
  async send(req: FuzzRequest): Promise<FuzzOutcome> {
    const started = performance.now();
    try {
      const res = await fetch(this.svc.url + req.path, {
        method: req.method,
        headers: req.headers,
        body: req.body,
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      const text = await res.text();
      return {
        request: req,
        status: res.status,
        retryAfter: res.headers.get('retry-after'),
        contentType: res.headers.get('content-type'),
        text,
        ms: performance.now() - started,
      };
    } catch (err) {
      const e = err as Error & { cause?: Error };
      const failure =
        e.name === 'TimeoutError'
          ? `no answer within ${this.options.timeoutMs} ms`
          : `request failed: ${e.message}${e.cause ? ` (${e.cause.message})` : ''}`;
      return { request: req, status: 0, retryAfter: null, contentType: null, text: '', ms: performance.now() - started, failure };
    }
  }

  async sendAll(reqs: FuzzRequest[]): Promise<FuzzOutcome[]> {
    const out: FuzzOutcome[] = new Array(reqs.length);
    let next = 0;
    const worker = async () => {
      while (next < reqs.length) {
        const i = next++;
        out[i] = await this.send(reqs[i]);
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.options.concurrency, reqs.length) }, worker));
    return out;
  }

  /** Every problem of a batch of outcomes, one line each (empty when all is well). */
  problems(outcomes: FuzzOutcome[], opts: { allowRetryable503?: boolean } = {}): string[] {
    const foreignIds = [...new Set([this.foreign.projectId, ...Object.values(this.foreign.ids).flat()])];
    const requestText = (r: FuzzRequest) =>
      `${r.path}\n${safeDecode(r.path)}\n${Object.values(r.headers).join('\n')}\n${bodyText(r.body)}`.toLowerCase();
    // First what the own project may now legitimately hold, so that a listing answered later can show it: an id it
    // wrote and the service accepted as its own (say a trace_id of its own choosing, echoed back), or one it wrote into
    // its own data (a metadata key, a name: stored, though the answer need not echo it), never one it referred to.
    for (const o of outcomes) {
      if (o.status < 200 || o.status > 299 || o.request.method === 'GET') continue;
      const sent = requestText(o.request);
      const got = o.text.toLowerCase();
      const ownData = o.request.authorized ? ownDataStrings(bodyText(o.request.body)) : [];
      for (const id of foreignIds) {
        if ((sent.includes(id) && got.includes(id)) || ownData.some((s) => s.includes(id))) this.adopted.add(id);
      }
    }
    const lines: string[] = [];
    for (const o of outcomes) {
      const r = o.request;
      const where = `${r.method} ${r.path.length > 200 ? `${r.path.slice(0, 200)}...` : r.path} (route ${routeName(r.route)})`;
      const found: string[] = [];
      if (o.failure) found.push(o.failure);
      else {
        const retryable = o.status === 503 && o.retryAfter !== null;
        if (o.status >= 500 && !(retryable && opts.allowRetryable503)) found.push(`answered ${o.status}${retryable ? ' (with Retry-After)' : ''}`);
        if (o.status < 200 || o.status > 299) {
          if (!/^application\/json\b/.test(o.contentType ?? '')) found.push(`error with Content-Type ${JSON.stringify(o.contentType)}`);
          found.push(
            ...(r.route.protocol === 'mcp' && r.route.method === r.method
              ? jsonRpcErrorProblems(o.status, o.text)
              : errorShapeProblems(o.status, o.text)),
          );
        } else {
          if (r.route.auth && !r.authorized && r.method === r.route.method) found.push(`answered ${o.status} without valid credentials`);
          if (o.status !== 204 && o.text !== '') {
            try {
              JSON.parse(o.text);
            } catch {
              found.push('2xx body is not JSON');
            }
          }
        }
        if (INTERNALS.test(o.text)) found.push('response shows internals (stack frames or source paths)');
        const text = o.text.toLowerCase();
        const sent = requestText(r);
        for (const s of this.foreign.secrets) if (text.includes(s.toLowerCase())) found.push(`leaks the other project's ${JSON.stringify(s)}`);
        for (const id of foreignIds) {
          if (text.includes(id) && !sent.includes(id) && !this.adopted.has(id)) found.push(`leaks the other project's id ${id}`);
        }
      }
      if (found.length) lines.push(`${where} -> ${o.status || 'no response'}: ${found.join('; ')}; body ${JSON.stringify(o.text.slice(0, 300))}`);
    }
    return lines;
  }

  /** Puts back the own project's webhooks that DELETE requests removed, so every property starts from the same resources. */
  async restoreOwn(): Promise<void> {
    const ids = this.own.ids.webhook_id ?? [];
    for (let i = 0; i < ids.length; i++) {
      const res = await call(this.svc, this.own, 'GET', `/v1/webhooks/${ids[i]}`, undefined, this.options.timeoutMs, [200, 404]);
      if (res.status === 404) {
        const made = await call(
          this.svc,
          this.own,
          'POST',
          '/v1/webhooks',
          { url: 'https://example.com/restored', events: ['*'] },
          this.options.timeoutMs,
          [201, 409, 422],
        );
        if (made.status === 201) ids[i] = made.body.webhook_id;
      }
    }
  }

  /** What the foreign project sees of its own data, for the "left unchanged" check. */
  async foreignSnapshot(): Promise<string> {
    const f = this.foreign;
    const parts: unknown[] = [];
    for (const path of ['/v1/traces', '/v1/campaigns', '/v1/webhooks', '/v1/runs'])
      parts.push((await call(this.svc, f, 'GET', `${path}?limit=100`, undefined, this.options.timeoutMs)).body);
    for (const id of f.ids.campaign_id)
      parts.push((await call(this.svc, f, 'GET', `/v1/campaigns/${id}/eval-set`, undefined, this.options.timeoutMs)).body);
    for (const id of f.ids.trace_id) parts.push((await call(this.svc, f, 'GET', `/v1/traces/${id}`, undefined, this.options.timeoutMs)).body);
    return JSON.stringify(parts);
  }

  /** Differences between the foreign project's data now and right after seeding (empty string when none). */
  async foreignChanges(): Promise<string> {
    await this.svc.idle();
    const now = await this.foreignSnapshot();
    if (now === this.snapshot) return '';
    let i = 0;
    while (i < now.length && now[i] === this.snapshot![i]) i++;
    return `the other project's data changed near: ${JSON.stringify(this.snapshot!.slice(Math.max(0, i - 80), i + 120))} -> ${JSON.stringify(now.slice(Math.max(0, i - 80), i + 120))}`;
  }
}

/** How many cases a property runs out of the configured number. */
export const runsOf = (property: FuzzProperty, numRuns: number) => Math.max(1, Math.ceil(numRuns * (property.runsFactor ?? 1)));

/** Sends one input's requests and returns every problem: the common checks and the property's own. */
export async function tryInput<T>(
  world: FuzzWorld,
  property: FuzzProperty<T>,
  input: T,
  opts: { allowRetryable503?: boolean } = {},
): Promise<{ outcomes: FuzzOutcome[]; problems: string[] }> {
  const outcomes = await world.sendAll(property.requests(world, input));
  return { outcomes, problems: [...world.problems(outcomes, opts), ...(property.check?.(outcomes) ?? [])] };
}

/** Runs and seed of the fuzz properties: RTS_FUZZ_RUNS (cases per property) and RTS_FUZZ_SEED, else the defaults. */
export function fuzzSettings(defaultRuns: number): { numRuns: number; seed: number } {
  const runs = Number(process.env.RTS_FUZZ_RUNS);
  const seed = process.env.RTS_FUZZ_SEED === 'random' ? Date.now() ^ (Math.random() * 0x100000000) : Number(process.env.RTS_FUZZ_SEED ?? 9);
  return { numRuns: Number.isInteger(runs) && runs > 0 ? runs : defaultRuns, seed: Number.isFinite(seed) ? seed | 0 : 9 };
}
