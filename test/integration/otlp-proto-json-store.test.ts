// An export stored through OTLP/JSON and the same export stored through protobuf give the same stored trace, byte for
// byte: generated OpenLLMetry conversations with up to 60 more attributes (generated values, nested to the depth limit)
// in any order, each sent to two projects, one per encoding, through the local service.
import { randomBytes, randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { createProject } from '../../functions/core/auth';
import { systemClock } from '../../functions/core/time';
import { otlpTraceUuid } from '../../functions/core/traces/otlp/merge';
import { getDeps } from '../../functions/wiring/deps';
import { anyValue, openLlmetryExport } from '../helpers/otlp-arbitraries';
import { encodeOtlpJson } from '../helpers/otlp-encode';
import { startTestService, type TestService } from '../helpers/local-service';

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService({ deliverWebhooks: false });
});
afterAll(() => svc.stop());

async function project() {
  const p = await createProject({ projects: getDeps().projects, clock: systemClock }, { name: `otlp-${randomUUID().slice(0, 8)}` });
  return { projectId: p.project_id, headers: { 'X-API-Key': p.api_key, 'X-Project-Id': p.project_id } };
}

/** The stored trace as GET answers it, with what differs by project (its id, its upload time) blanked. */
async function stored(p: { projectId: string; headers: Record<string, string> }, otelTraceId: string): Promise<string> {
  const res = await svc.api('GET', `/v1/traces/${otlpTraceUuid(p.projectId, otelTraceId)}`, undefined, p.headers);
  expect(res.status).toBe(200);
  return JSON.stringify({ ...res.body, trace_id: '', created_at: '', updated_at: '' });
}

describe('POST /v1/traces: OTLP/JSON and protobuf store the same trace', () => {
  it('stores any generated OpenLLMetry conversation identically through both encodings', async () => {
    const [viaJson, viaProto] = [await project(), await project()];
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 60 }),
        fc.integer({ min: 1 }),
        fc.array(anyValue, { maxLength: 8 }),
        async (padding, seed, extra) => {
          // Prepare: the conversation under a trace id of its own, generated values among the padding
          const body = openLlmetryExport({ padding, seed }) as any;
          const otelTraceId = randomBytes(16).toString('hex');
          for (const span of body.resourceSpans[0].scopeSpans[0].spans) span.traceId = otelTraceId;
          body.resourceSpans[0].scopeSpans[0].spans[2].attributes.push(...extra.map((value, i) => ({ key: `app.extra.${i}`, value })));

          // Act
          const json = await svc.raw('POST', '/v1/traces', {
            body: JSON.stringify(body),
            headers: { ...viaJson.headers, 'Content-Type': 'application/json' },
          });
          const proto = await svc.raw('POST', '/v1/traces', {
            body: Buffer.from(encodeOtlpJson(body)),
            headers: { ...viaProto.headers, 'Content-Type': 'application/x-protobuf' },
          });

          // Assess
          expect([json.status, proto.status]).toEqual([200, 200]);
          const [a, b] = [await stored(viaJson, otelTraceId), await stored(viaProto, otelTraceId)];
          expect(b).toBe(a);
          expect(a).toContain('Your order 1234 has shipped with UPS.');
        },
      ),
      { numRuns: 12 },
    );
  }, 120_000);
});
