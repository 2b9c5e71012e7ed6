// Repeats statistics and baseline comparison of CI batches
// (docs/ci.md#repeats-statistics-flaky-scenarios-and-baselines), end to end through the local service with a
// deterministic step agent: flaky cells, pass^k and Wilson bounds checked against values computed here, and
// comparisons by batch id and by branch with exact regressions, fixes, new unsafe cells, new and dropped traces.
import http from 'node:http';
import { sampleTrace } from '../helpers/fixtures';
import { createTraces, pollUntil, setEvalSet } from '../helpers/ci';
import { startTestService, type TestService } from '../helpers/local-service';

let svc: TestService;
let agent: { url: string; close(): Promise<void> };
/** How the agent answers, by the user message's key (its last word, lower-cased). */
const behaviour = new Map<string, 'pass' | 'fail' | 'leak' | 'alternate'>();
/** Calls per key of mutated (upper-cased) messages, for `alternate`. */
const mutatedCalls = new Map<string, number>();

/**
 * The step agent: answers with a final output at once. Unmutated messages always get a passing answer; a mutated
 * one (the `shout` mutation upper-cases the user message) follows the key's behaviour: `fail` answers without
 * "refund", `leak` passes the criterion but leaks an AWS key (unsafe), `alternate` fails every second call.
 */
async function startAgent() {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { messages: { role: string; content: string }[] };
      const user = body.messages.find((m) => m.role === 'user')?.content ?? '';
      const key = user.trim().split(/\s+/).pop()!.toLowerCase();
      const mutated = user === user.toUpperCase();
      let output = 'Your refund is on its way.';
      if (mutated) {
        const mode = behaviour.get(key) ?? 'pass';
        const n = (mutatedCalls.get(key) ?? 0) + 1;
        mutatedCalls.set(key, n);
        if (mode === 'fail' || (mode === 'alternate' && n % 2 === 0)) output = 'Sorry, I cannot help with that.';
        if (mode === 'leak') output = 'Your refund is on its way. Debug key: AKIAIOSFODNN7EXAMPLE';
      }
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ output }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/step`,
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

const traceFor = (key: string) => {
  const t = sampleTrace({ name: `scenario ${key}` });
  t.steps = [t.steps[0], { role: 'user', content: `please refund order ${key}` }, { role: 'assistant', content: 'Your refund is on its way.' }];
  return t;
};

async function campaign(repeats: number, name = 'stats'): Promise<string> {
  const res = await svc.api('POST', '/v1/campaigns', {
    name,
    target: { type: 'http', url: agent.url, timeout_ms: 2000 },
    mutations: [{ id: 'shout', type: 'input_perturbation', kind: 'uppercase' }],
    criteria: [{ type: 'output_contains', value: 'refund' }],
    repeats,
  });
  if (res.status !== 201) throw new Error(`campaign: ${res.status} ${res.text}`);
  return res.body.campaign_id;
}

async function submit(body: Record<string, unknown>) {
  const sub = await svc.api('POST', '/v1/ci/runs', body);
  if (sub.status !== 202) throw new Error(`submit: ${sub.status} ${sub.text}`);
  const batch = await pollUntil(svc, `/v1/ci/batch/${sub.body.ci_batch_id}`, (b) => b.status === 'done', 30000);
  return { sub: sub.body, batch };
}

async function scenarios(batchId: string, query = ''): Promise<any[]> {
  const items: any[] = [];
  let cursor: string | null = null;
  do {
    const sep = query ? '&' : '';
    const path: string = `/v1/ci/batch/${batchId}/scenarios?limit=2${sep}${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const res = await svc.api('GET', path);
    expect(res.status).toBe(200);
    items.push(...res.body.items);
    cursor = res.body.next_cursor;
  } while (cursor);
  return items;
}

/** The 95 % Wilson interval solved here from its defining quadratic, independently of the service's closed form. */
function wilsonByQuadratic(passed: number, n: number): [number, number] {
  const z = 1.959963984540054;
  const phat = passed / n;
  // (phat - p)^2 = z^2 p (1 - p) / n  <=>  (1 + z^2/n) p^2 - (2 phat + z^2/n) p + phat^2 = 0
  const a = 1 + (z * z) / n;
  const b = -(2 * phat + (z * z) / n);
  const c = phat * phat;
  const root = Math.sqrt(b * b - 4 * a * c);
  return [(-b - root) / (2 * a), (-b + root) / (2 * a)];
}

beforeAll(async () => {
  svc = await startTestService({ deliverWebhooks: false });
  agent = await startAgent();
}, 60000);
afterAll(async () => {
  await agent.close();
  await svc.stop();
});
beforeEach(() => {
  behaviour.clear();
  mutatedCalls.clear();
});

describe('repeats statistics', () => {
  it('finds exactly the flaky cells, pass^k and the Wilson interval of an agent that fails one cell every other call', async () => {
    behaviour.set('alpha', 'alternate');
    behaviour.set('beta', 'alternate');
    const traceIds = await createTraces(svc, [traceFor('alpha'), traceFor('beta'), traceFor('gamma')]);
    const campaignId = await campaign(3);
    await setEvalSet(svc, campaignId, traceIds);
    const thresholds = { min_pass_rate: 0.8, max_failures: 1, max_flaky: 1, min_pass_hat_k: 0.6, min_pass_rate_lower_bound: 0.6 };
    const { batch } = await submit({ campaign_id: campaignId, thresholds });

    // 3 traces x 2 cells x 3 repeats = 18 attempts; alpha's and beta's mutated cells pass calls 1 and 3 of 3.
    const [low, high] = wilsonByQuadratic(16, 18);
    expect(batch.pass_rate).toBeCloseTo(16 / 18, 12);
    expect(batch.pass_rate_interval).toEqual({ low: expect.any(Number), high: expect.any(Number), confidence: 0.95, method: 'wilson' });
    expect(batch.pass_rate_interval.low).toBeCloseTo(low, 12);
    expect(batch.pass_rate_interval.high).toBeCloseTo(high, 12);
    expect(batch.flaky_count).toBe(2);
    expect(batch.pass_hat_k).toBeCloseTo(4 / 6, 12);
    // Every run passes its own thresholds; the batch fails on max_flaky alone.
    expect(batch.failed_runs).toEqual([]);
    expect(batch.decision).toBe('fail');
    expect(batch.reasons).toEqual(['flaky_count 2 > max_flaky 1']);

    const items = await scenarios(batch.ci_batch_id);
    expect(items.map((s) => s.trace_id)).toEqual(traceIds);
    const byName = Object.fromEntries(items.map((s) => [s.trace_name, s]));
    for (const key of ['alpha', 'beta']) {
      expect(byName[`scenario ${key}`]).toMatchObject({ flaky: true, flaky_cells: 1, pass_hat_k: 0.5, decision: 'pass', comparison: null });
      expect(byName[`scenario ${key}`].cells).toEqual([
        { mutation_id: null, passed: 3, total: 3, unsafe: 0, errors: 0, flaky: false, failures: [], comparison: null, before: null },
        {
          mutation_id: 'shout',
          passed: 2,
          total: 3,
          unsafe: 0,
          errors: 0,
          flaky: true,
          failures: ['criterion output_contains: output does not contain "refund"'],
          comparison: null,
          before: null,
        },
      ]);
    }
    expect(byName['scenario gamma']).toMatchObject({ flaky: false, flaky_cells: 0, pass_hat_k: 1 });
    expect((await scenarios(batch.ci_batch_id, 'status=flaky')).map((s) => s.trace_name).sort()).toEqual(['scenario alpha', 'scenario beta']);
    expect(await scenarios(batch.ci_batch_id, 'status=failed')).toEqual([]);

    // The statistics threshold that the interval misses is named with the interval.
    mutatedCalls.clear();
    const strict = await submit({ campaign_id: campaignId, thresholds: { ...thresholds, max_flaky: 5, min_pass_rate_lower_bound: 0.9 } });
    expect(strict.batch.reasons).toEqual([
      expect.stringMatching(/^pass_rate_interval\.low 0\.\d+ < min_pass_rate_lower_bound 0\.9 \(95% Wilson interval /),
    ]);
  });

  it('rejects bad thresholds, filters and baselines with 422 and names the field', async () => {
    const campaignId = await campaign(1, 'validation');
    const bad = [
      [{ thresholds: { max_flaky: -1 } }, 'thresholds.max_flaky'],
      [{ thresholds: { min_pass_hat_k: 1.5 } }, 'thresholds.min_pass_hat_k'],
      [{ thresholds: { min_pass_rate_lower_bound: 'high' } }, 'thresholds.min_pass_rate_lower_bound'],
      [{ baseline: {} }, 'baseline'],
      [{ baseline: { branch: 'main', batch_id: '6f1c1d52-8f7e-4a8e-9d4f-3c2b1a0f9e8d' } }, 'baseline'],
      [{ baseline: { batch_id: 'nope' } }, 'baseline.batch_id'],
    ] as const;
    for (const [extra, path] of bad) {
      const res = await svc.api('POST', '/v1/ci/runs', { campaign_id: campaignId, ...extra });
      expect({ extra, status: res.status, code: res.body.error.code }).toEqual({ extra, status: 422, code: 'validation_error' });
      expect(res.body.error.details.map((d: { path: string }) => d.path)).toContain(path);
    }
    const [traceId] = await createTraces(svc, [traceFor('solo')]);
    const single = await svc.api('POST', '/v1/ci/runs', { campaign_id: campaignId, trace_id: traceId, baseline: { branch: 'main' } });
    expect(single.status).toBe(422);
    expect(single.body.error.details).toEqual([{ path: 'baseline', message: 'not allowed when the campaign has no eval-set' }]);
    const filter = await svc.api('GET', `/v1/ci/batch/6f1c1d52-8f7e-4a8e-9d4f-3c2b1a0f9e8d/scenarios?status=weird`);
    expect(filter.status).toBe(422);
    expect((await svc.api('GET', `/v1/ci/batch/6f1c1d52-8f7e-4a8e-9d4f-3c2b1a0f9e8d/scenarios`)).status).toBe(404);
    expect((await svc.api('GET', '/v1/ci/batches?campaign_id=nope')).status).toBe(422);
  });
});

describe('comparison with a baseline', () => {
  it('compares by branch with the latest done batch of that campaign and branch: exact regressions, fixes, new unsafe, new and dropped', async () => {
    const keys = ['one', 'two', 'three', 'four', 'five'];
    const ids = Object.fromEntries(keys.map((k, i) => [k, i]));
    const traceIds = await createTraces(
      svc,
      keys.map((element) => traceFor(element)),
    );
    const campaignId = await campaign(1, 'compare');
    const other = await campaign(1, 'another campaign');

    // Baseline history on main: an older batch where everything fails, then the one to compare with.
    for (const k of keys) behaviour.set(k, 'fail');
    await setEvalSet(svc, campaignId, traceIds.slice(0, 4));
    await submit({ campaign_id: campaignId, metadata: { branch: 'main' }, thresholds: { min_pass_rate: 0, max_failures: 10 } });
    behaviour.clear();
    behaviour.set('two', 'fail');
    const base = await submit({
      campaign_id: campaignId,
      metadata: { branch: 'main', commit: 'aaa' },
      thresholds: { min_pass_rate: 0, max_failures: 10 },
    });
    // A later main batch of another campaign must not be picked.
    await setEvalSet(svc, other, traceIds.slice(0, 2));
    await submit({ campaign_id: other, metadata: { branch: 'main' }, thresholds: { min_pass_rate: 0, max_failures: 10 } });

    // Now: "one" regresses, "two" is fixed, "three" leaks (new unsafe: an unsafe attempt fails, so it regresses too),
    // "four" is dropped, "five" is new.
    behaviour.clear();
    behaviour.set('one', 'fail');
    behaviour.set('three', 'leak');
    const eval2 = await svc.api('PATCH', `/v1/campaigns/${campaignId}/eval-set`, {
      add_trace_ids: [traceIds[ids.five]],
      remove_trace_ids: [traceIds[ids.four]],
    });
    expect(eval2.status).toBe(200);
    const { sub, batch } = await submit({
      campaign_id: campaignId,
      metadata: { branch: 'feature/x' },
      baseline: { branch: 'main' },
      thresholds: { min_pass_rate: 0, max_failures: 10, max_unsafe: 10 },
    });
    expect(sub).toMatchObject({ baseline_batch_id: base.batch.ci_batch_id, baseline_missing: false });
    expect(batch).toMatchObject({ baseline: { branch: 'main' }, baseline_batch_id: base.batch.ci_batch_id, baseline_missing: false });
    expect(batch.thresholds.max_regressions).toBe(0);
    const name = (k: string) => `scenario ${k}`;
    expect(batch.comparison).toEqual({
      baseline_batch_id: base.batch.ci_batch_id,
      baseline_branch: 'main',
      baseline_campaign_version: 1,
      campaign_version: 1,
      new_cells_count: 0,
      dropped_cells_count: 0,
      new_cells: [],
      dropped_cells: [],
      pass_rate_delta: expect.any(Number),
      regressed_count: 2,
      fixed_count: 1,
      new_unsafe_count: 1,
      new_count: 1,
      dropped_count: 1,
      dropped: [{ trace_id: traceIds[ids.four], trace_name: name('four') }],
      regressed: [
        { trace_id: traceIds[ids.one], trace_name: name('one'), mutation_id: 'shout', before: '1/1', after: '0/1' },
        { trace_id: traceIds[ids.three], trace_name: name('three'), mutation_id: 'shout', before: '1/1', after: '0/1' },
      ],
      fixed: [{ trace_id: traceIds[ids.two], trace_name: name('two'), mutation_id: 'shout', before: '0/1', after: '1/1' }],
      new_unsafe: [
        {
          trace_id: traceIds[ids.three],
          trace_name: name('three'),
          mutation_id: 'shout',
          before: '1/1',
          after: '0/1',
          unsafe_before: '0/1',
          unsafe_after: '1/1',
        },
      ],
    });
    // Before: 7 of 8 attempts passed; now: 6 of 8 ("one" and "three" mutated fail, "five" passes both).
    expect(batch.comparison.pass_rate_delta).toBeCloseTo(6 / 8 - 7 / 8, 12);
    expect(batch.decision).toBe('fail');
    expect(batch.reasons[0]).toBe(
      `regressed_count 2 > max_regressions 0 since batch ${base.batch.ci_batch_id}: trace "scenario one" [shout] 1/1 -> 0/1, trace "scenario three" [shout] 1/1 -> 0/1`,
    );

    const all = await scenarios(batch.ci_batch_id);
    expect(Object.fromEntries(all.map((s) => [s.trace_name, s.comparison]))).toEqual({
      [name('one')]: 'regressed',
      [name('two')]: 'fixed',
      [name('three')]: 'regressed',
      [name('five')]: 'new',
    });
    const one = all.find((s) => s.trace_name === name('one'));
    expect(one.cells.map((c: any) => [c.mutation_id, c.comparison, c.before])).toEqual([
      [null, 'unchanged', '1/1'],
      ['shout', 'regressed', '1/1'],
    ]);
    expect((await scenarios(batch.ci_batch_id, 'status=regressed')).map((s) => s.trace_name)).toEqual([name('one'), name('three')]);
    expect((await scenarios(batch.ci_batch_id, 'status=fixed')).map((s) => s.trace_name)).toEqual([name('two')]);

    // The same comparison by batch id, with regressions allowed: the batch passes what it can.
    behaviour.set('three', 'pass');
    const byId = await submit({
      campaign_id: campaignId,
      baseline: { batch_id: base.batch.ci_batch_id },
      thresholds: { min_pass_rate: 0, max_failures: 10, max_regressions: 1 },
    });
    expect(byId.batch.comparison).toMatchObject({
      baseline_batch_id: base.batch.ci_batch_id,
      regressed_count: 1,
      fixed_count: 1,
      new_unsafe_count: 0,
    });
    expect(byId.batch.decision).toBe('pass');

    // The listing: newest first, filterable by campaign and branch.
    const listed = await svc.api('GET', `/v1/ci/batches?campaign_id=${campaignId}&branch=main`);
    expect(listed.status).toBe(200);
    expect(listed.body.items.map((b: any) => b.ci_batch_id)[0]).toBe(base.batch.ci_batch_id);
    expect(listed.body.items).toHaveLength(2);
    expect(listed.body.items[0]).toMatchObject({
      status: 'done',
      decision: 'pass',
      metadata: { branch: 'main', commit: 'aaa' },
      campaign_id: campaignId,
    });
    const feature = (await svc.api('GET', `/v1/ci/batches?campaign_id=${campaignId}`)).body.items.find(
      (b: any) => b.ci_batch_id === batch.ci_batch_id,
    );
    expect(feature).toMatchObject({
      baseline_batch_id: base.batch.ci_batch_id,
      regressed_count: 2,
      decision: 'fail',
      flaky_count: 0,
      pass_hat_k: 0.75,
    });
  });

  it('reports baseline_missing without failing when no done batch matches, and refuses unusable baseline ids', async () => {
    const traceIds = await createTraces(svc, [traceFor('lone')]);
    const campaignId = await campaign(1, 'missing');
    const other = await campaign(1, 'other');
    await setEvalSet(svc, campaignId, traceIds);
    await setEvalSet(svc, other, traceIds);
    const { sub, batch } = await submit({ campaign_id: campaignId, baseline: { branch: 'never-built' } });
    expect(sub).toMatchObject({ baseline_batch_id: null, baseline_missing: true });
    expect(batch).toMatchObject({ decision: 'pass', baseline_missing: true, comparison: null, reasons: [] });

    const foreign = await submit({ campaign_id: other });
    const res = await svc.api('POST', '/v1/ci/runs', { campaign_id: campaignId, baseline: { batch_id: foreign.batch.ci_batch_id } });
    expect(res.status).toBe(422);
    expect(res.body.error.details[0].path).toBe('baseline.batch_id');
    const unknown = await svc.api('POST', '/v1/ci/runs', { campaign_id: campaignId, baseline: { batch_id: '6f1c1d52-8f7e-4a8e-9d4f-3c2b1a0f9e8d' } });
    expect(unknown.status).toBe(404);
  });
});
