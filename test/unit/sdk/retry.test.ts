// The client's retries: Retry-After (seconds or an HTTP date, capped) on 429 and 503, backoff otherwise, and only for
// requests that are safe to repeat (GET, PATCH, DELETE, POSTs with an Idempotency-Key).
import { parseRetryAfter, RtsApiError, RtsClient, type ClientOptions } from '../../../packages/sdk/src/index';
import { fakeFetch, refused, type Reply } from './fake-fetch';

const NOW = Date.parse('2026-11-21T12:00:00Z');
const ok = (body: unknown = { status: 'ok' }): Reply => ({ status: 200, body });
const err = (status: number, code: string, headers: Record<string, string> = {}): Reply => ({
  status,
  headers,
  body: { error: { code, message: `${code} happened`, request_id: `req-${status}` } },
});

function setup(replies: Reply[], opts: ClientOptions = {}) {
  const f = fakeFetch(...replies);
  const sleeps: number[] = [];
  const client = new RtsClient({
    baseUrl: 'http://127.0.0.1:8787',
    apiKey: 'k',
    projectId: 'p',
    fetch: f.fetch,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    now: () => NOW,
    ...opts,
  });
  return { client, calls: f.calls, sleeps };
}

describe('parseRetryAfter', () => {
  it('reads delay-seconds and HTTP dates, a past date as 0, and refuses anything else', () => {
    expect(parseRetryAfter('3', NOW)).toBe(3000);
    expect(parseRetryAfter(' 0 ', NOW)).toBe(0);
    expect(parseRetryAfter('Sat, 21 Nov 2026 12:00:07 GMT', NOW)).toBe(7000);
    expect(parseRetryAfter('Sat, 21 Nov 2026 11:00:00 GMT', NOW)).toBe(0);
    for (const bad of [null, undefined, '', '-1', '1.5', 'soon', 'Mon, 99 Foo 2026 25:00:00 GMT'])
      expect([bad, parseRetryAfter(bad as string, NOW)]).toEqual([bad, undefined]);
  });
});

describe('RtsClient retries', () => {
  it('waits as long as Retry-After says on a 429, then succeeds', async () => {
    const { client, calls, sleeps } = setup([err(429, 'rate_limited', { 'Retry-After': '2' }), ok()]);
    await expect(client.health()).resolves.toEqual({ status: 'ok' });
    expect(calls).toHaveLength(2);
    expect(sleeps).toEqual([2000]);
  });

  it('waits until the HTTP date of a 503 Retry-After', async () => {
    const { client, sleeps } = setup([err(503, 'service_unavailable', { 'retry-after': 'Sat, 21 Nov 2026 12:00:04 GMT' }), ok()]);
    await client.getRun('r1');
    expect(sleeps).toEqual([4000]);
  });

  it('does not wait longer than maxRetryDelayMs: a longer Retry-After rejects at once, with the wait it asked for', async () => {
    const { client, calls, sleeps } = setup([err(429, 'rate_limited', { 'Retry-After': '120' }), ok()], { maxRetryDelayMs: 10_000 });
    const error = await client.getRun('r1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RtsApiError);
    expect(error).toMatchObject({ status: 429, code: 'rate_limited', retryAfterMs: 120_000, requestId: 'req-429' });
    expect(calls).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('backs off 0.5 s then 1 s on 5xx without Retry-After, and gives up after `retries` more tries', async () => {
    const { client, calls, sleeps } = setup([err(502, 'bad_gateway')]);
    await expect(client.listTraces()).rejects.toMatchObject({ status: 502, code: 'bad_gateway' });
    expect(calls).toHaveLength(3);
    expect(sleeps).toEqual([500, 1000]);
  });

  it('honours Retry-After on 429 and 503 only (a 500 backs off)', async () => {
    const { client, sleeps } = setup([err(500, 'internal_error', { 'Retry-After': '9' }), ok()]);
    await client.health();
    expect(sleeps).toEqual([500]);
  });

  it('retries network errors, and reports the last one as network_error with its address', async () => {
    const { client, calls } = setup([refused()], { retries: 1 });
    await expect(client.getCiBatch('b1')).rejects.toMatchObject({
      status: 0,
      code: 'network_error',
      message: expect.stringContaining('connect ECONNREFUSED 127.0.0.1:9'),
    });
    expect(calls).toHaveLength(2);
  });

  it('never retries 4xx answers other than 429', async () => {
    const { client, calls } = setup([err(422, 'validation_error'), ok()]);
    await expect(client.createRun({ trace_id: 't', campaign_id: 'c' })).rejects.toMatchObject({ status: 422 });
    expect(calls).toHaveLength(1);
  });

  it('retries a typed POST with the same Idempotency-Key, so it cannot act twice', async () => {
    const { client, calls } = setup([err(503, 'service_unavailable', { 'Retry-After': '1' }), { status: 202, body: { run_id: 'r' } }]);
    await client.createRun({ trace_id: 't', campaign_id: 'c' });
    expect(calls).toHaveLength(2);
    expect(calls[1].init.headers['Idempotency-Key']).toBe(calls[0].init.headers['Idempotency-Key']);
  });

  it('does not retry a POST sent without an Idempotency-Key through the low-level post', async () => {
    const { client, calls } = setup([err(503, 'service_unavailable', { 'Retry-After': '1' }), ok()]);
    await expect(client.post('/v1/runs', { trace_id: 't' })).rejects.toMatchObject({ status: 503 });
    expect(calls).toHaveLength(1);
  });

  it('retries PATCH and DELETE like GET', async () => {
    const { client, calls } = setup([err(503, 'service_unavailable'), { status: 204 }]);
    await client.deleteWebhook('wh_x');
    await client.updateWebhook('wh_x', { is_enabled: false });
    expect(calls.map((c) => c.init.method)).toEqual(['DELETE', 'DELETE', 'PATCH']);
  });

  it('tries once with retries: 0', async () => {
    const { client, calls } = setup([err(429, 'rate_limited', { 'Retry-After': '1' }), ok()], { retries: 0 });
    await expect(client.health()).rejects.toMatchObject({ status: 429, retryAfterMs: 1000 });
    expect(calls).toHaveLength(1);
  });

  it('turns an answer that is not the error body into http_error with the status', async () => {
    const { client } = setup([{ status: 404, body: '<html>nope</html>' }]);
    await expect(client.health()).rejects.toMatchObject({ status: 404, code: 'http_error', message: 'HTTP 404', body: undefined });
  });
});
