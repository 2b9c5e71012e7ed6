// The generated-input properties the fuzz runs over every route of lib/routes.ts: arbitrary and mutated bodies, odd
// headers, paths and queries, concurrent copies, and the other project's ids. Each turns one input into requests that
// FuzzWorld (test/helpers/fuzz-harness.ts) sends and checks.
import { randomBytes } from 'node:crypto';
import * as fc from 'fast-check';
import { routes } from '../../lib/routes';
import { applyMutation, bodyMutation, rawBody, type BodyMutation } from './fuzz-arbitraries';
import { contentType, credentialValue, headerValue, idempotencyKey, pathSegment, queryString } from './fuzz-request-arbitraries';
import { bodyRoutes, paramNames, routeName, type FuzzOutcome, type FuzzProperty } from './fuzz-harness';

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
