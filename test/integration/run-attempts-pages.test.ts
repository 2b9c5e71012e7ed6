// GET /v1/runs/{id}/attempts at real size: a 5 MB trace replayed 20 times. The listing is paginated and cuts each
// attempt's large values to size (with a marker and `truncated`); GET .../attempts/{n} returns one attempt whole.
import { createCampaign, createTrace, pollUntil } from '../helpers/ci';
import { sampleTrace } from '../helpers/fixtures';
import { startTestService, type TestService } from '../helpers/local-service';

let svc: TestService;
let runId: string;
let bigResult: { orders: Record<string, unknown>[] };

/** A catalogue lookup answering ~4.7 MB of order rows (repetitive, as real catalogues are: gzip keeps it in one item). */
function bigTrace() {
  const orders = Array.from({ length: 27500 }, (_, i) => ({
    order_id: `ord-${100000 + i}`,
    status: ['delivered', 'shipped', 'refunded', 'pending'][i % 4],
    total: (i % 200) + 0.5,
    customer: `customer-${i % 300}@example.com`,
    note: `standard shipping, warehouse ${i % 12}, carrier ${['ups', 'dhl', 'fedex'][i % 3]}`,
    items: [{ sku: `SKU-${i % 97}`, qty: (i % 5) + 1 }],
  }));
  bigResult = { orders };
  const t = sampleTrace({ name: 'big catalogue lookup' });
  return {
    ...t,
    steps: t.steps.map((s): Record<string, unknown> => (s.role === 'tool' && s.name === 'lookup_order' ? { ...s, content: bigResult } : s)),
  };
}

beforeAll(async () => {
  svc = await startTestService({ deliverWebhooks: false });
  const trace = bigTrace();
  expect(Buffer.byteLength(JSON.stringify(trace))).toBeGreaterThan(4.5 * 1024 * 1024);
  const traceId = await createTrace(svc, trace);
  const campaignId = await createCampaign(svc, { repeats: 20 });
  const res = await svc.api('POST', '/v1/runs', { trace_id: traceId, campaign_id: campaignId });
  expect(res.status).toBe(202);
  runId = res.body.run_id;
  await pollUntil(svc, `/v1/runs/${runId}`, (r) => r.status === 'completed' || r.status === 'failed', 120000, 200);
}, 180000);
afterAll(async () => {
  await svc.stop();
});

describe('GET /v1/runs/{run_id}/attempts', () => {
  it('answers 20 attempts of a 5 MB trace in a bounded page, each served result cut with a marker', async () => {
    // Act
    const res = await svc.api('GET', `/v1/runs/${runId}/attempts`);

    // Assess
    expect(res.status).toBe(200);
    expect(Buffer.byteLength(res.text)).toBeLessThan(512 * 1024); // 102 MB before: every served result, 20 times
    expect(res.body.items.map((a: { attempt: number }) => a.attempt)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(res.body.next_cursor).toBeNull();
    for (const a of res.body.items) {
      expect(a.truncated).toBe(true);
      const served = a.transcript.find((e: { type: string; tool?: string }) => e.type === 'tool_result' && e.tool === 'lookup_order');
      expect(served.truncated).toBe(true);
      expect(served.result).toMatch(
        new RegExp(`^\\{"orders":\\[.*… \\[truncated by rts: \\d+ characters; the whole attempt: GET /v1/runs/${runId}/attempts/${a.attempt}\\]$`),
      );
      const small = a.transcript.find((e: { type: string; tool?: string }) => e.type === 'tool_result' && e.tool === 'refund_order');
      expect(small.result).toEqual({ refunded: true });
      expect(small.truncated).toBeUndefined();
    }
  });

  it('pages with limit and cursor: every attempt once, in order; a bad cursor or limit is a 422', async () => {
    // Act
    const seen: number[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res: { status: number; body: { items: { attempt: number }[]; next_cursor: string | null } } = await svc.api(
        'GET',
        `/v1/runs/${runId}/attempts?limit=6${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      expect(res.status).toBe(200);
      seen.push(...res.body.items.map((a) => a.attempt));
      cursor = res.body.next_cursor;
      pages++;
    } while (cursor && pages < 10);
    const forged = await svc.api('GET', `/v1/runs/${runId}/attempts?cursor=eyJzIjoieCJ9.abc`);
    const tooMany = await svc.api('GET', `/v1/runs/${runId}/attempts?limit=101`);

    // Assess
    expect(seen).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(pages).toBe(4);
    expect(forged.status).toBe(422);
    expect(forged.body.error.details[0].path).toBe('cursor');
    expect(tooMany.status).toBe(422);
  });
});

describe('GET /v1/runs/{run_id}/attempts/{attempt}', () => {
  it('returns one attempt whole, the served result as recorded', async () => {
    const res = await svc.api('GET', `/v1/runs/${runId}/attempts/7`);

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ attempt: 7, truncated: false });
    const served = res.body.transcript.find((e: { type: string; tool?: string }) => e.type === 'tool_result' && e.tool === 'lookup_order');
    expect(served.result).toEqual(bigResult);
    expect(served.truncated).toBeUndefined();
  });

  it.each(['0', '21', '200', '201', 'abc', '1.5', '-1', '01'])('answers 404 not_found for attempt %s', async (n) => {
    const res = await svc.api('GET', `/v1/runs/${runId}/attempts/${n}`);

    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
  });

  it('answers 404 for a run of nobody', async () => {
    const res = await svc.api('GET', '/v1/runs/6f1c2b0e-6f3a-4c1e-9b1a-2d3e4f5a6b7c/attempts/1');
    expect(res.status).toBe(404);
  });
});
