// Seeding a fuzzed project through the API: what the harness writes before the properties run, and the one call it
// makes with a project's credentials outside the properties (test/helpers/fuzz-harness.ts).
import { randomBytes } from 'node:crypto';
import { recordedCampaign, sampleTrace } from './fixtures';
import type { ProjectFixture } from './fuzz-harness';
import type { TestService } from './local-service';

/** One request with a project's credentials; throws unless the status is expected (any 2xx by default). */
export async function call(
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
export async function seedProject(svc: TestService, label: string, projectId: string, apiKey: string, timeoutMs: number): Promise<ProjectFixture> {
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
