// The fuzz harness: two seeded projects on a running local service, the generated-input properties over every route
// of lib/routes.ts, and the checks every response must pass (no 5xx, no hang, the API's error body, no cross-project
// data).
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as fc from 'fast-check';
import { createProject } from '../../functions/core/auth';
import { systemClock } from '../../functions/core/time';
import { getDeps } from '../../functions/wiring/deps';
import { routes, type RouteRow } from '../../lib/routes';
import { recordedCampaign, sampleTrace } from './fixtures';
import { ownDataStrings } from './fuzz-own-data';
import {
  apiVocabulary,
  applyMutation,
  bodyMutation,
  contentType,
  credentialValue,
  headerValue,
  idempotencyKey,
  pathSegment,
  queryString,
  rawBody,
  type BodyMutation,
  type Vocabulary,
} from './fuzz-arbitraries';
import type { TestService } from './local-service';
import { pathParams as paramsOf, routeName } from '../../functions/core/route-row';

export { routeName };
export const pathParams = (r: RouteRow) => paramsOf(r.path);
/** Routes whose requests carry a JSON body: every method but GET and DELETE. */
export const bodyRoutes = () => routes.filter((r) => r.method !== 'GET' && r.method !== 'DELETE');
const paramNames = () => [...new Set(routes.flatMap((element) => pathParams(element)))];

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

const STATUS_CODES: Record<number, RegExp> = {
  400: /^(invalid_json|bad_request)$/,
  431: /^request_header_fields_too_large$/,
  401: /^unauthorized$/,
  404: /^(not_found|route_not_found)$/,
  405: /^method_not_allowed$/,
  409: /^([a-z_]+_)?conflict$/,
  413: /^payload_too_large$/,
  415: /^unsupported_media_type$/,
  422: /^(validation_error|unknown_trace|insufficient_scenarios)$/,
  429: /^rate_limited$/,
  503: /^[a-z_]+$/,
};

/** What a response must never show: stack frames, source paths, dependency internals. */
const INTERNALS = /\n\s+at |node_modules|functions\/(core|http|shared|adapters)\/|\.ts:\d+/;

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

/** Problems of an error body against its documented shape (docs/api.md#errors); empty when it conforms. */
export function errorShapeProblems(status: number, text: string): string[] {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return [`non-JSON error body ${JSON.stringify(text.slice(0, 200))}`];
  }
  const problems: string[] = [];
  const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
  if (!isObj(body)) return [`error body is not an object: ${text.slice(0, 200)}`];
  const top = Object.keys(body);
  if (top.length !== 1 || top[0] !== 'error') problems.push(`top-level keys ${JSON.stringify(top)} instead of ["error"]`);
  const e = body.error;
  if (!isObj(e)) return [...problems, 'error is not an object'];
  for (const k of Object.keys(e)) if (!['code', 'message', 'details', 'request_id'].includes(k)) problems.push(`unexpected error.${k}`);
  if (typeof e.code !== 'string' || !/^[a-z_]+$/.test(e.code)) problems.push(`error.code ${JSON.stringify(e.code)} is not a snake_case string`);
  else if (STATUS_CODES[status] && !STATUS_CODES[status].test(e.code)) problems.push(`error.code ${e.code} does not belong to status ${status}`);
  if (typeof e.message !== 'string' || e.message === '') problems.push('error.message is not a non-empty string');
  if (typeof e.request_id !== 'string' || e.request_id === '') problems.push('error.request_id is not a non-empty string');
  if (e.details !== undefined) {
    if (!Array.isArray(e.details)) problems.push('error.details is not an array');
    else {
      e.details.forEach((d, i) => {
        if (!isObj(d) || typeof d.message !== 'string' || (d.path !== undefined && typeof d.path !== 'string')) {
          problems.push(`error.details[${i}] is not {path, message}: ${JSON.stringify(d).slice(0, 120)}`);
        }
      });
    }
  }
  return problems;
}

/**
 * Problems of an error of the MCP endpoint, a JSON-RPC error (id null) in its own protocol, or the service's error body
 * for what the chain and the gateway in front of it refuse (a run id that is not a UUID, headers too long).
 */
export function jsonRpcErrorProblems(status: number, text: string): string[] {
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    return [`non-JSON error body ${JSON.stringify(text.slice(0, 200))}`];
  }
  if (body && typeof body === 'object' && 'error' in body && !('jsonrpc' in body)) return errorShapeProblems(status, text);
  const ok =
    body?.jsonrpc === '2.0' &&
    body.id === null &&
    Number.isInteger(body.error?.code) &&
    typeof body.error?.message === 'string' &&
    body.error.message !== '';
  return ok ? [] : [`not a JSON-RPC error: ${text.slice(0, 200)}`];
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

async function call(
  svc: TestService,
  p: Pick<ProjectFixture, 'apiKey' | 'projectId'>,
  method: string,
  path: string,
  body: unknown,
  timeoutMs: number,
  expect?: number[],
  headers: Record<string, string> = {},
): Promise<{ status: number; body: any }> {
  const res = await fetch(svc.url + path, {
    method,
    headers: {
      'X-API-Key': p.apiKey,
      'X-Project-Id': p.projectId,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await res.text();
  if (expect ? !expect.includes(res.status) : res.status >= 300)
    throw new Error(`seeding: ${method} ${path} answered ${res.status}: ${text.slice(0, 300)}`);
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/**
 * Seeds a project through the API: two traces, two recorded campaigns (the first with an eval-set), a run, a CI
 * batch and a single CI run, two webhooks; then reads a cursor off every listing. Every name and content carries a
 * tag unique to this project.
 */
async function seedProject(svc: TestService, label: string, projectId: string, apiKey: string, timeoutMs: number): Promise<ProjectFixture> {
  const tag = `${label}-${randomBytes(6).toString('hex')}`;
  const p = { apiKey, projectId };
  const go = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
    call(svc, p, method, path, body, timeoutMs, undefined, headers);
  const idempotencyKeys = [`${tag}-idem-1`, `${tag}-idem-2`];

  const traces: string[] = [];
  for (const n of [1, 2]) {
    const trace = sampleTrace({ name: `${tag} trace ${n}`, metadata: { owner: `${tag}-metadata` } });
    trace.steps[1] = { role: 'user', content: `${tag}-content: please refund order 1234` };
    traces.push((await go('POST', '/v1/traces', trace)).body.trace_id);
  }
  const campaigns: string[] = [];
  for (const n of [1, 2]) {
    const body = recordedCampaign({ name: `${tag} campaign ${n}`, description: `${tag}-description` });
    campaigns.push((await go('POST', '/v1/campaigns', body, n === 1 ? { 'Idempotency-Key': idempotencyKeys[0] } : {})).body.campaign_id);
  }
  // One trace in the pool: every CI batch the fuzzing submits queues one replay, not two.
  await go('PATCH', `/v1/campaigns/${campaigns[0]}/eval-set`, { add_trace_ids: [traces[0]], min_scenarios: 1 });
  const run = (await go('POST', '/v1/runs', { trace_id: traces[0], campaign_id: campaigns[0] }, { 'Idempotency-Key': idempotencyKeys[1] })).body
    .run_id;
  const batch = (await go('POST', '/v1/ci/runs', { campaign_id: campaigns[0], metadata: { commit: `${tag}-commit`, branch: `${tag}-branch` } })).body;
  const single = (await go('POST', '/v1/ci/runs', { campaign_id: campaigns[1], trace_id: traces[1] })).body;
  const webhooks: { webhook_id: string; secret: string }[] = [];
  for (const n of [1, 2])
    webhooks.push(
      (await go('POST', '/v1/webhooks', { url: `https://${tag}-${n}.example.com/hook`, events: ['*'], description: `${tag}-hook` })).body,
    );
  await svc.idle();

  const cursors: string[] = [];
  const listings = [
    '/v1/traces',
    '/v1/campaigns',
    '/v1/webhooks',
    '/v1/runs',
    `/v1/runs?campaign_id=${campaigns[0]}`,
    `/v1/runs/${batch.run_ids[0]}/policy-events`,
  ];
  for (const path of listings) {
    const res = await go('GET', `${path}${path.includes('?') ? '&' : '?'}limit=1`);
    if (res.body.next_cursor) cursors.push(res.body.next_cursor);
  }
  return {
    label,
    projectId,
    apiKey,
    ids: {
      trace_id: traces,
      campaign_id: campaigns,
      run_id: [run, single.run_id, ...batch.run_ids],
      batch_id: [batch.ci_batch_id],
      webhook_id: webhooks.map((w) => w.webhook_id),
    },
    cursors,
    idempotencyKeys,
    secrets: [tag, apiKey, ...webhooks.map((w) => w.secret)],
  };
}

// ---------------------------------------------------------------- the properties

const JSON_TYPES = ['application/json', 'application/json; charset=utf-8'];

/** Arbitrary bodies (any JSON value as raw text, deep, wide, at the limit, broken, not UTF-8) on every body route. */
export const arbitraryBodies: FuzzProperty<{ body: string | Uint8Array; contentType: string }> = {
  title: 'arbitrary JSON bodies',
  arbitrary: (w) => fc.record({ body: rawBody(w.vocab), contentType: fc.constantFrom(...JSON_TYPES) }),
  requests: (w, input) =>
    bodyRoutes().map((route) => ({
      route,
      method: route.method,
      path: w.concretePath(route, (p) => w.ownId(p, route.method)),
      headers: { ...w.authHeaders(w.own), 'Content-Type': input.contentType },
      body: input.body,
      authorized: true,
    })),
};

/** Every valid body of every body route with one field replaced by arbitrary JSON, deleted, or one key added. */
export const validBodyMutations: FuzzProperty<BodyMutation> = {
  title: 'mutations of valid bodies',
  arbitrary: (w) => bodyMutation(w.vocab),
  requests: (w, mutation) =>
    bodyRoutes().flatMap((route) =>
      w.templates(route, w.ownRefs()).map((template) => ({
        route,
        method: route.method,
        path: w.concretePath(route, (p) => w.ownId(p, route.method)),
        headers: { ...w.authHeaders(w.own), 'Content-Type': 'application/json' },
        body: applyMutation(template, mutation),
        authorized: true,
      })),
    ),
  // The property most likely to reach the store with odd values (free-form fields take any JSON): twice the cases.
  runsFactor: 2,
};

interface HeaderInput {
  credentials: { apiKey?: string; projectId?: string };
  contentType?: string;
  idempotencyKey?: string;
  extra: [string, string] | null;
}

const EXTRA_HEADERS = [
  'Accept',
  'Authorization',
  'X-HTTP-Method-Override',
  'X-Forwarded-For',
  'Content-Encoding',
  'Origin',
  'X-Amz-Date',
  'X-Amzn-Trace-Id',
  'Accept-Charset',
];

/** Odd credentials, content types, Idempotency-Keys and extra headers on every route, with valid bodies. */
export const oddHeaders: FuzzProperty<HeaderInput> = {
  title: 'odd headers',
  arbitrary: (w) =>
    fc
      .record({
        credentials: fc.oneof(
          fc.constant({ apiKey: w.own.apiKey, projectId: w.own.projectId }),
          fc.record({
            apiKey: credentialValue([w.own.apiKey, w.own.apiKey, w.foreign.apiKey], 'key'),
            projectId: credentialValue([w.own.projectId, w.own.projectId, w.foreign.projectId], 'project'),
          }),
        ),
        contentType,
        idempotencyKey: idempotencyKey([...w.own.idempotencyKeys, ...w.foreign.idempotencyKeys], w.options),
        extra: fc.option(fc.tuple(fc.constantFrom(...EXTRA_HEADERS), headerValue()), { nil: null }),
      })
      // The foreign project's own pair would legitimately see (and change) its data: that is not this property.
      .filter(({ credentials: c }) => !(c.apiKey?.trim() === w.foreign.apiKey && c.projectId?.trim() === w.foreign.projectId)),
  requests: (w, h) =>
    routes.map((route) => {
      const headers: Record<string, string> = {};
      const { apiKey, projectId } = h.credentials;
      if (apiKey !== undefined) headers['X-API-Key'] = apiKey;
      if (projectId !== undefined) headers['X-Project-Id'] = projectId;
      if (h.idempotencyKey !== undefined) headers['Idempotency-Key'] = h.idempotencyKey;
      if (h.extra) headers[h.extra[0]] = h.extra[1];
      const hasBody = route.method !== 'GET' && route.method !== 'DELETE';
      let body: string | Uint8Array | undefined;
      if (hasBody) {
        const text = JSON.stringify(w.templates(route, w.ownRefs())[0]);
        // Without a Content-Type, a string body would get text/plain from fetch: bytes get none.
        if (h.contentType === undefined) body = Buffer.from(text);
        else {
          body = text;
          headers['Content-Type'] = h.contentType;
        }
      }
      return {
        route,
        method: route.method,
        path: w.concretePath(route, (p) => w.ownId(p, route.method)),
        headers,
        body,
        authorized: apiKey?.trim() === w.own.apiKey && projectId?.trim() === w.own.projectId,
      };
    }),
};

interface PathInput {
  segments: Record<string, string>;
  query: string | null;
  method: string | null;
  trailing: string;
}

/** Odd path ids (any shape, length, encoding), query strings and methods on every route. */
export const oddPathsAndQueries: FuzzProperty<PathInput> = {
  title: 'odd path ids, methods and query strings',
  arbitrary: (w) => {
    const all = [...Object.values(w.own.ids).flat(), ...Object.values(w.foreign.ids).flat()];
    const segments = Object.fromEntries(
      paramNames().map((p) => [p, pathSegment([...(w.own.ids[p] ?? []), ...(w.own.ids[p] ?? []), ...all], w.options)]),
    );
    return fc.record({
      segments: fc.record(segments),
      query: fc.option(queryString({ ids: all, cursors: [...w.own.cursors, ...w.foreign.cursors], vocab: w.vocab, oversize: w.options.oversize }), {
        nil: null,
        freq: 4,
      }),
      method: fc.oneof(
        { arbitrary: fc.constant(null), weight: 4 },
        { arbitrary: fc.constantFrom('GET', 'POST', 'PATCH', 'DELETE', 'PUT', 'OPTIONS'), weight: 1 },
      ),
      trailing: fc.constantFrom('', '', '', '', '/', '//'),
    });
  },
  requests: (w, input) =>
    routes.map((route) => {
      const method = input.method ?? route.method;
      const hasBody = method !== 'GET' && method !== 'DELETE' && method !== 'OPTIONS';
      return {
        route,
        method,
        path: w.concretePath(route, (p) => input.segments[p]) + input.trailing + (input.query === null ? '' : `?${input.query}`),
        headers: { ...w.authHeaders(w.own), ...(hasBody ? { 'Content-Type': 'application/json' } : {}) },
        body: hasBody ? JSON.stringify(w.templates(route, w.ownRefs())[0]) : undefined,
        authorized: true,
      };
    }),
};

interface CrossInput {
  template: number;
  segments: Record<string, string>;
  refs: Record<string, string>;
  query: string | null;
  mutation: BodyMutation | null;
  idempotencyKey?: string;
}

/** The own project's credentials with the other project's ids in paths, queries, bodies and Idempotency-Keys. */
export const foreignIds: FuzzProperty<CrossInput> = {
  title: "the other project's ids",
  arbitrary: (w) => {
    const f = w.foreign;
    const allForeign = Object.values(f.ids).flat();
    const segments = Object.fromEntries(
      paramNames().map((p) => [
        p,
        fc.oneof(
          { arbitrary: fc.constantFrom(...(f.ids[p] ?? allForeign)), weight: 4 },
          { arbitrary: fc.constantFrom(...allForeign), weight: 1 },
          { arbitrary: pathSegment(f.ids[p] ?? []), weight: 1 },
        ),
      ]),
    );
    const refs = Object.fromEntries(Object.keys(w.own.ids).map((p) => [p, fc.constantFrom(...f.ids[p], ...f.ids[p], w.own.ids[p][0])]));
    return fc.record({
      template: fc.nat(),
      segments: fc.record(segments),
      refs: fc.record(refs),
      query: fc.option(queryString({ ids: [f.projectId, ...allForeign], cursors: f.cursors, vocab: w.vocab }), { nil: null, freq: 5 }),
      mutation: fc.option(bodyMutation(w.vocab), { nil: null }),
      idempotencyKey: idempotencyKey(f.idempotencyKeys),
    });
  },
  requests: (w, input) =>
    routes.map((route) => {
      const hasBody = route.method !== 'GET' && route.method !== 'DELETE';
      const templates = w.templates(route, input.refs);
      const template = templates[input.template % templates.length];
      const headers: Record<string, string> = { ...w.authHeaders(w.own) };
      if (hasBody) headers['Content-Type'] = 'application/json';
      if (input.idempotencyKey !== undefined) headers['Idempotency-Key'] = input.idempotencyKey;
      return {
        route,
        method: route.method,
        path: w.concretePath(route, (p) => input.segments[p]) + (input.query === null ? '' : `?${input.query}`),
        headers,
        body: hasBody ? (input.mutation ? applyMutation(template, input.mutation) : JSON.stringify(template)) : undefined,
        authorized: true,
      };
    }),
};

/** How many copies of one request go out at once in the concurrency property. */
export const COPIES = 3;

/**
 * The same request several times at once on every body route, with one fresh Idempotency-Key (or none): a valid body
 * or a mutated one. Besides the common checks, POST copies sharing a key get one answer (or a 409).
 */
export const concurrentCopies: FuzzProperty<{ mutation: BodyMutation | null; template: number; keyed: boolean }> = {
  title: 'the same request several times at once',
  arbitrary: (w) => fc.record({ mutation: fc.option(bodyMutation(w.vocab), { nil: null, freq: 2 }), template: fc.nat(), keyed: fc.boolean() }),
  requests: (w, input) => {
    const run = randomBytes(8).toString('hex');
    return bodyRoutes().flatMap((route) => {
      const templates = w.templates(route, w.ownRefs());
      const template = templates[input.template % templates.length];
      const body = input.mutation ? applyMutation(template, input.mutation) : JSON.stringify(template);
      const headers: Record<string, string> = { ...w.authHeaders(w.own), 'Content-Type': 'application/json' };
      if (input.keyed) headers['Idempotency-Key'] = `copies-${run}-${routeName(route)}`;
      const path = w.concretePath(route, (p) => w.ownId(p, route.method));
      return Array.from({ length: COPIES }, () => ({ route, method: route.method, path, headers, body, authorized: true }));
    });
  },
  check: (outcomes) => idempotencyProblems(outcomes),
  // Each case queues up to a dozen replays (unkeyed copies of the run routes): half as many cases.
  runsFactor: 0.5,
};

/**
 * Problems of concurrent POST copies sharing an Idempotency-Key (docs/api.md#idempotency): besides 409
 * idempotency_conflict (a copy still being processed), every copy must get the first copy's status and body (the
 * request id aside: a body refused before it is parsed, 400 or 415, has no hash to be replayed under).
 */
export function idempotencyProblems(outcomes: FuzzOutcome[]): string[] {
  const byKey = new Map<string, FuzzOutcome[]>();
  for (const o of outcomes) {
    const key = o.request.headers['Idempotency-Key'];
    if (key !== undefined && o.request.method === 'POST') byKey.set(key, [...(byKey.get(key) ?? []), o]);
  }
  const problems: string[] = [];
  for (const [key, group] of byKey) {
    const answered = group.filter((o) => !(o.status === 409 && o.text.includes('"idempotency_conflict"')));
    const distinct = new Set(answered.map((o) => `${o.status} ${o.text.replace(/"request_id":"[^"]*"/, '')}`));
    if (answered.length === 0) problems.push(`${key}: every copy answered 409, none ran`);
    if (distinct.size > 1) problems.push(`${key}: copies answered differently: ${[...distinct].map((d) => d.slice(0, 160)).join(' | ')}`);
  }
  return problems;
}

export const PROPERTIES: FuzzProperty[] = [arbitraryBodies, validBodyMutations, oddHeaders, oddPathsAndQueries, concurrentCopies, foreignIds];

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
