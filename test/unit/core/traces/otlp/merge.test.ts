// Joining an OTel trace: its stable rts id, span sets merged by span id (first version wins), and which validation
// failures only mean "not complete yet".
import { traceInputSchema } from '../../../../../functions/core/traces/schema';
import { mergeSpans, onlyIncomplete, otlpTraceUuid } from '../../../../../functions/core/traces/otlp/merge';
import type { Span } from '../../../../../functions/core/traces/otlp/types';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const P1 = '6f1c3a52-4b1e-4c8e-9f1a-0c2d3e4f5a6b';
const P2 = '0a1b2c3d-4e5f-4a6b-8c7d-8e9f0a1b2c3d';
const T = '5b8efff798038103d269b633813fc60c';

const span = (spanId: string, name = 'chat'): Span => ({ traceId: T, spanId, name, attrs: {}, resource: {}, events: [], isError: false });

describe('otlpTraceUuid', () => {
  it('is a lowercase UUID with version 4 bits, the same for the same project and trace id', () => {
    const id = otlpTraceUuid(P1, T);

    expect(id).toMatch(UUID_V4);
    expect(otlpTraceUuid(P1, T)).toBe(id);
    expect(otlpTraceUuid(P1, T.toUpperCase())).toBe(id);
  });

  it('differs between projects and between trace ids', () => {
    expect(otlpTraceUuid(P2, T)).not.toBe(otlpTraceUuid(P1, T));
    expect(otlpTraceUuid(P1, `${T.slice(0, 31)}d`)).not.toBe(otlpTraceUuid(P1, T));
  });

  it('never changes for a given project and trace id: stored traces keep being found (SHA-256 of namespace, project, trace id)', () => {
    expect(otlpTraceUuid('00000000-0000-4000-8000-000000000000', '0'.repeat(31) + '1')).toBe('11483e13-8f30-4835-9b33-795f8feeade0');
  });
});

describe('mergeSpans', () => {
  it('adds the spans whose ids are new, after the stored ones, in arrival order', () => {
    const stored = [span('a'), span('b')];

    const { spans, added } = mergeSpans(stored, [span('c'), span('a'), span('d')]);

    expect(spans.map((s) => s.spanId)).toEqual(['a', 'b', 'c', 'd']);
    expect(added.map((s) => s.spanId)).toEqual(['c', 'd']);
  });

  it('keeps the first version of a span id, also within one export', () => {
    const { spans, added } = mergeSpans([span('a', 'first')], [span('a', 'second'), span('b', 'one'), span('b', 'two')]);

    expect(spans.map((s) => s.name)).toEqual(['first', 'one']);
    expect(added).toHaveLength(1);
  });

  it('returns the stored set itself when nothing is new', () => {
    const stored = [span('a')];

    const { spans, added } = mergeSpans(stored, [span('a')]);

    expect(spans).toBe(stored);
    expect(added).toEqual([]);
  });
});

describe('onlyIncomplete', () => {
  const issuesOf = (input: unknown) => {
    const r = traceInputSchema.safeParse(input);
    if (r.success) throw new Error('valid');
    return r.error;
  };

  it('is true when steps are missing or no step is a user step', () => {
    expect(onlyIncomplete(issuesOf({ steps: [] }))).toBe(true);
    expect(onlyIncomplete(issuesOf({ steps: [{ role: 'assistant', content: 'hi' }] }))).toBe(true);
  });

  it('is false when anything else is wrong too', () => {
    expect(onlyIncomplete(issuesOf({ steps: [{ role: 'tool', tool_call_id: 'x', content: 1 }] }))).toBe(false);
    expect(onlyIncomplete(issuesOf({ name: '', steps: [] }))).toBe(false);
  });
});
