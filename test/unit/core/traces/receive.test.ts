// receiveTraces, the one core call of POST /v1/traces: an OTLP export is ingested and answered in its encoding, anything
// else is validated and uploaded as a native trace.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BusEvent } from '../../../../functions/core/events';
import { ValidationError } from '../../../../functions/core/errors';
import { receiveTraces } from '../../../../functions/core/traces/receive';
import type { Deps } from '../../../../functions/core/ports';

const PROJECT = '6f1c3a52-4b1e-4c8e-9f1a-0c2d3e4f5a6b';
const REFUND = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', '..', 'samples', 'traces', 'refund-order.json'), 'utf8')) as Record<
  string,
  unknown
>;

/** Deps with a trace store that keeps what is put, and a bus that records what is published. */
function world() {
  const stored: string[] = [];
  const published: BusEvent[] = [];
  const deps = {
    traces: {
      putIfAbsent: async (_projectId: string, trace: { trace_id: string }) => {
        stored.push(trace.trace_id);
        return { created: true };
      },
      storedIds: async () => new Set<string>(),
    },
    events: { publish: async (events: BusEvent[]) => void published.push(...events) },
    clock: { now: () => new Date('2026-11-21T12:00:00Z') },
    uuid: () => '2b3c4d5e-6f70-4a81-9b2c-3d4e5f607182',
  } as unknown as Deps;
  return { deps, stored, published };
}

describe('receiveTraces', () => {
  it('uploads a native trace: 201 with its summary, stored and announced', async () => {
    // Prepare
    const { deps, stored, published } = world();

    // Act
    const answer = await receiveTraces(deps, PROJECT, REFUND, 'application/json');

    // Assess
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ trace_id: REFUND.trace_id, name: REFUND.name });
    expect(answer.headers).toBeUndefined();
    expect(stored).toEqual([REFUND.trace_id]);
    expect(published.map((e) => e.envelope.event_type)).toEqual(['trace.created']);
  });

  it('refuses a body that is neither an OTLP export nor a valid native trace with 422 naming the fields', async () => {
    const { deps, stored } = world();

    const refused = receiveTraces(deps, PROJECT, { name: 'no steps' }, 'application/json');

    await expect(refused).rejects.toBeInstanceOf(ValidationError);
    await expect(refused).rejects.toMatchObject({ details: expect.arrayContaining([expect.objectContaining({ path: 'steps' })]) });
    expect(stored).toEqual([]);
  });

  it('answers an OTLP/JSON export with the JSON summary, storing nothing when it holds no span', async () => {
    const { deps, stored } = world();

    const answer = await receiveTraces(deps, PROJECT, { resourceSpans: [] }, 'application/json');

    expect(answer).toEqual({
      status: 200,
      body: { traces: [], created: [], updated: [], accepted_spans: 0, skipped_spans: 0, rejected_spans: 0 },
    });
    expect(stored).toEqual([]);
  });

  it('answers an export that came as protobuf in protobuf', async () => {
    const { deps } = world();

    const answer = await receiveTraces(deps, PROJECT, { resourceSpans: [] }, 'application/x-protobuf');

    expect(answer.status).toBe(200);
    expect(answer.headers).toEqual({ 'Content-Type': 'application/x-protobuf' });
    expect(answer.body).toBeInstanceOf(Uint8Array);
  });
});
