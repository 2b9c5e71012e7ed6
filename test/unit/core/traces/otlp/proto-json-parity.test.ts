// Any export reads the same through OTLP/JSON and through protobuf: generated spans with 0-80 attributes (the GenAI
// ones anywhere among them), values nested up to the depth limit, events and several resources; and the 28-attribute
// OpenLLMetry chat span whose attributes past the 20th were lost through protobuf.
import fc from 'fast-check';
import { convertTrace } from '../../../../../functions/core/traces/otlp/convert';
import { decodeExportRequest } from '../../../../../functions/core/traces/otlp/read-proto';
import { readExport } from '../../../../../functions/core/traces/otlp/read-json';
import { encodeOtlpJson } from '../../../../helpers/otlp-encode';
import { openLlmetryExport, otlpExport } from '../../../../helpers/otlp-arbitraries';

/** What the service reads of an export sent as JSON text, and of the same export sent as protobuf. */
function readBoth(body: { resourceSpans: unknown[] }) {
  const viaJson = readExport(JSON.parse(JSON.stringify(body)));
  const viaProto = readExport(JSON.parse(JSON.stringify(decodeExportRequest(encodeOtlpJson(body)))));
  return { viaJson, viaProto };
}

describe('OTLP/JSON and protobuf read the same', () => {
  it('keeps every attribute of a 28-attribute OpenLLMetry chat span, the final answer included', () => {
    // Prepare
    const body = openLlmetryExport({ padding: 0 });
    const chat = (body.resourceSpans[0] as any).scopeSpans[0].spans[2];
    expect(chat.attributes).toHaveLength(28);

    // Act
    const { viaJson, viaProto } = readBoth(body);
    const trace = convertTrace('trace-1', viaProto.spans) as { steps: { role: string; content?: string }[] };

    // Assess
    expect(viaProto).toEqual(viaJson);
    expect(JSON.stringify(viaProto)).not.toContain('[nested too deep]');
    expect(trace.steps.at(-1)).toMatchObject({ role: 'assistant', content: 'Your order 1234 has shipped with UPS.' });
  });

  it('reads any generated export identically, byte for byte', () => {
    fc.assert(
      fc.property(otlpExport(), (body) => {
        const { viaJson, viaProto } = readBoth(body);
        expect(JSON.stringify(viaProto)).toBe(JSON.stringify(viaJson));
      }),
      { numRuns: 150 },
    );
  });

  it('converts any generated OpenLLMetry export into the same trace, byte for byte', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 60 }), fc.integer(), (padding, seed) => {
        const { viaJson, viaProto } = readBoth(openLlmetryExport({ padding, seed }));
        expect(JSON.stringify(convertTrace('t', viaProto.spans))).toBe(JSON.stringify(convertTrace('t', viaJson.spans)));
      }),
      { numRuns: 60 },
    );
  });
});
