import { startTestService } from '/work/main/test/helpers/local-service';
import { createCampaign, createTraces, passingTrace, pollUntil, setEvalSet } from '/work/main/test/helpers/ci';
import { dynamoDocClient } from '/work/main/functions/shared/aws';
(async () => {
  const svc = await startTestService({ deliverWebhooks: false, queue: { concurrency: 16 } });
  const stats = new Map<string, { n: number; ms: number }>();
  const client = dynamoDocClient();
  client.middlewareStack.add((next, ctx) => async (args) => {
    const t = Date.now();
    try { return await next(args); } finally {
      const k = (ctx as any).commandName; const s = stats.get(k) ?? { n: 0, ms: 0 }; s.n++; s.ms += Date.now() - t; stats.set(k, s);
    }
  }, { step: 'initialize', name: 'timing' });
  const N = Number(process.env.N ?? 100);
  let t0 = Date.now();
  const ids = await createTraces(svc, Array.from({ length: N }, (_, i) => passingTrace(`p${i}`)));
  console.log('uploads', Date.now() - t0, Object.fromEntries(stats)); stats.clear(); t0 = Date.now();
  const cid = await createCampaign(svc);
  await setEvalSet(svc, cid, ids);
  const sub = await svc.api('POST', '/v1/ci/runs', { campaign_id: cid });
  console.log('submit', Date.now() - t0, Object.fromEntries(stats)); stats.clear(); t0 = Date.now();
  await pollUntil(svc, `/v1/ci/batch/${sub.body.ci_batch_id}`, (b) => b.status === 'done', 120000);
  console.log('done', Date.now() - t0, Object.fromEntries(stats));
  await svc.stop();
})();
