// The scenario test/infra/bundles-e2e.test.ts puts both the bundles and the sources through, and how their answers are
// made comparable.
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { REPO_ROOT } from '../../lib/constructs/bundling';
import { until, type Answer, type Client } from '../helpers/bundles-harness';

export const sample = (name: string) => JSON.parse(readFileSync(path.join(REPO_ROOT, 'samples', name), 'utf8'));
export const REFUND = sample('traces/refund-order.json');
export const FLIGHT = sample('traces/book-flight.json');
export const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
export const ISO_TIME = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})/g;

/**
 * Makes two services' answers comparable: ids become `<id1>`, `<id2>`... in order of appearance, times `<time>`,
 * durations `<ms>`, the base URL `<base>`; request ids, cursors and secrets are opaque, and so are the canaries and
 * bait credentials the mutations draw afresh for each run.
 */
export function normalizer(baseUrl: string): (value: unknown) => unknown {
  const ids = new Map<string, string>();
  const id = (raw: string) => {
    if (!ids.has(raw)) ids.set(raw, `<id${ids.size + 1}>`);
    return ids.get(raw)!;
  };
  const walk = (v: unknown, key: string): unknown => {
    if (typeof v === 'string') {
      if (['request_id', 'next_cursor', 'secret', 'aws_secret_access_key'].includes(key)) return `<${key}>`;
      return v
        .split(baseUrl)
        .join('<base>')
        .replace(ISO_TIME, '<time>')
        .replace(UUID, id)
        .replace(/\bwh_[A-Za-z0-9_-]+/g, id)
        .replace(/RTS-CANARY-[0-9a-f]+/g, '<canary>')
        .replace(/AKIA[0-9A-Z]{16}/g, '<access-key>');
    }
    if (typeof v === 'number' && /(^|_)ms$/.test(key)) return '<ms>';
    if (Array.isArray(v)) return v.map((x) => walk(x, key));
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, k)]));
    return v;
  };
  return (value) => walk(value, '');
}

/** What a service answered, labelled, in order. */
export type Answers = [string, Answer][];

/**
 * The scenario both services go through: public routes, refusals, traces, campaigns (the demo agent over HTTP, the
 * recorded target), a run to completion, a run-pack, a CI batch over the eval-set.
 */
export async function scenario(c: Client, agentUrl: string, mcpAgentUrl: string): Promise<Answers> {
  const answers: Answers = [];
  const ask = async (label: string, method: string, p: string, body?: unknown, headers?: Record<string, string>) => {
    const res = await c.call(method, p, body, headers);
    answers.push([label, res]);
    return res;
  };
  const poll = async (label: string, p: string, done: (body: any) => boolean) => {
    const res = await until(c, p, done);
    answers.push([label, res]);
    return res;
  };
  const terminal = (b: any) => b.status === 'completed' || b.status === 'failed';

  // Public routes and refusals: the OpenAPI document and the zod messages come from the bundles' copies of zod.
  await ask('health', 'GET', '/health');
  await ask('openapi', 'GET', '/v1/openapi.json');
  await ask('dashboard', 'GET', '/dashboard');
  await ask('wrong key', 'GET', '/v1/traces', undefined, { 'X-API-Key': `rts_${'x'.repeat(40)}` });
  await ask('invalid trace', 'POST', '/v1/traces', { name: 7, steps: 'none' });
  await ask('invalid campaign', 'POST', '/v1/campaigns', { name: '', target: { type: 'http', url: 'ftp://agent' }, repeats: 0 });
  await ask('invalid webhook', 'POST', '/v1/webhooks', { url: 'http://hooks.example.com', events: ['nope'] });
  await ask('run id not a uuid', 'GET', '/v1/runs/not-a-uuid');
  await ask('unknown run', 'GET', '/v1/runs/00000000-0000-4000-8000-000000000000');
  await ask('bad limit', 'GET', '/v1/traces?limit=0');

  // Traces: upload (201), identical re-upload (200), listing page by page, one read.
  const refund = await ask('upload refund', 'POST', '/v1/traces', REFUND);
  await ask('re-upload refund', 'POST', '/v1/traces', REFUND);
  const flight = await ask('upload flight', 'POST', '/v1/traces', FLIGHT);
  const traceIds = [refund.body.trace_id as string, flight.body.trace_id as string];
  const page1 = await ask('traces page 1', 'GET', '/v1/traces?limit=1');
  await ask('traces page 2', 'GET', `/v1/traces?limit=1&cursor=${encodeURIComponent(page1.body.next_cursor)}`);
  await ask('tampered cursor', 'GET', `/v1/traces?limit=1&cursor=${encodeURIComponent(`${page1.body.next_cursor}x`)}`);
  await ask('read trace', 'GET', `/v1/traces/${traceIds[0]}`);

  // Campaigns: the demo agent over the step protocol (mutations, policies with a user regex, detectors), and audit mode.
  const agentCampaignBody = { ...sample('campaign.json'), target: { type: 'http', url: agentUrl, timeout_ms: 10_000 } };
  const agentCampaign = await ask('create agent campaign', 'POST', '/v1/campaigns', agentCampaignBody);
  const recorded = await ask('create recorded campaign', 'POST', '/v1/campaigns', sample('campaign-recorded.json'));
  const [agentCampaignId, recordedCampaignId] = [agentCampaign.body.campaign_id as string, recorded.body.campaign_id as string];
  await ask('list campaigns', 'GET', '/v1/campaigns');
  await ask('read campaign', 'GET', `/v1/campaigns/${agentCampaignId}`);
  await ask(
    'update campaign',
    'PUT',
    `/v1/campaigns/${agentCampaignId}`,
    { ...agentCampaignBody, name: 'refund agent, version 2' },
    { 'If-Match': '1' },
  );
  await ask('campaign versions', 'GET', `/v1/campaigns/${agentCampaignId}/versions`);

  // A run to completion, with everything it produced.
  const run = await ask('queue run', 'POST', '/v1/runs', { trace_id: traceIds[0], campaign_id: agentCampaignId });
  const runId = run.body.run_id as string;
  await poll('run', `/v1/runs/${runId}`, terminal);
  await ask('attempts', 'GET', `/v1/runs/${runId}/attempts`);
  await ask('one attempt whole', 'GET', `/v1/runs/${runId}/attempts/1`);
  await ask('policy events', 'GET', `/v1/runs/${runId}/policy-events?limit=50`);
  await ask('security events', 'GET', `/v1/runs/${runId}/security-events`);

  // The mcp target: the demo agent's own loop calls the recorded tools on the MCP endpoint's function over the table.
  const mcpCampaign = await ask('create mcp campaign', 'POST', '/v1/campaigns', {
    ...sample('campaign-mcp.json'),
    target: { type: 'mcp', url: mcpAgentUrl, timeout_ms: 30_000 },
  });
  const mcpRun = await ask('queue mcp run', 'POST', '/v1/runs', { trace_id: traceIds[0], campaign_id: mcpCampaign.body.campaign_id });
  await poll('mcp run', `/v1/runs/${mcpRun.body.run_id}`, terminal);
  await ask('mcp attempts', 'GET', `/v1/runs/${mcpRun.body.run_id}/attempts`);
  await ask(
    'mcp endpoint, token of no attempt',
    'POST',
    `/v1/mcp/${mcpRun.body.run_id}/1`,
    { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    {
      Authorization: `Bearer rts_mcp_${'x'.repeat(43)}`,
    },
  );

  // A run-pack of both traces on the recorded campaign.
  const pack = await ask('run-pack', 'POST', `/v1/campaigns/${recordedCampaignId}/run-pack`, { trace_ids: traceIds });
  for (const [i, id] of (pack.body.run_ids as string[]).entries()) await poll(`pack run ${i + 1}`, `/v1/runs/${id}`, terminal);
  const packRuns = await ask('completed runs of the recorded campaign', 'GET', `/v1/runs?campaign_id=${recordedCampaignId}&status=completed`);
  // Created in one instant, so listed in run id order (random): compare them in trace order.
  packRuns.body.items?.sort((a: any, b: any) => a.trace_id.localeCompare(b.trace_id));

  // CI: a batch over the agent campaign's eval-set, gated on thresholds.
  await ask('eval-set', 'PATCH', `/v1/campaigns/${agentCampaignId}/eval-set`, { add_trace_ids: traceIds, min_scenarios: 2 });
  await ask('read eval-set', 'GET', `/v1/campaigns/${agentCampaignId}/eval-set`);
  const ci = await ask(
    'ci batch',
    'POST',
    '/v1/ci/runs',
    { campaign_id: agentCampaignId, thresholds: { min_pass_rate: 0.5, max_unsafe: 0 } },
    { 'Idempotency-Key': 'bundles-e2e-build-1' },
  );
  await ask(
    'ci batch replayed',
    'POST',
    '/v1/ci/runs',
    { campaign_id: agentCampaignId, thresholds: { min_pass_rate: 0.5, max_unsafe: 0 } },
    { 'Idempotency-Key': 'bundles-e2e-build-1' },
  );
  await poll('ci batch done', `/v1/ci/batch/${ci.body.ci_batch_id}`, (b) => b.status === 'done');
  await ask('ci run', 'GET', `/v1/ci/runs/${ci.body.run_id}`);
  await ask('ci scenarios', 'GET', `/v1/ci/batch/${ci.body.ci_batch_id}/scenarios?status=failed`);
  await ask('ci batches', 'GET', `/v1/ci/batches?campaign_id=${agentCampaignId}`);

  return answers;
}
