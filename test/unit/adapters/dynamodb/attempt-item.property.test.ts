// Property: whatever an attempt holds, the stored attributes read back as the same record, its events and transcript
// to the JSON text; events numbered otherwise than by the engine, or times in another form, are kept as they are.
import fc from 'fast-check';
import { decodeAttempt, storedAttemptAttributes } from '../../../../functions/adapters/dynamodb/attempt-item';
import { eventIds } from '../../../../functions/core/ids';
import { isoMicros } from '../../../../functions/core/time';
import type { AttemptRecord, PolicyEvent, SecurityEvent } from '../../../../functions/core/runs/types';

const RUN = '1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed';
const START = Date.parse('2026-11-27T10:00:00.000Z');

// JSON values as they are once written as JSON text: -0 (which fast-check generates) is written "0" by JSON.stringify,
// in every format an attempt was ever stored in and in every API answer, so it reads back as 0.
const json = fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.parse(JSON.stringify(v)) as unknown);
const text = fc.string({ unit: 'grapheme', maxLength: 80 });
const time = fc.oneof(
  fc.integer({ min: 0, max: 600_000 }).map((ms) => isoMicros(new Date(START + ms))),
  fc.constantFrom('2026-11-27T10:00:00Z', 'not a time', ''),
);

/** An attempt of `attempt`, its events numbered by the engine or (`numbered` false) by anything. */
const attemptArb = fc
  .record({
    attempt: fc.integer({ min: 1, max: 200 }),
    numbered: fc.boolean(),
    otherId: fc.uuid(),
    policy: fc.array(fc.record({ step: fc.nat(50), tool: text, arguments: fc.dictionary(text, json, { maxKeys: 4 }), reason: text, at: time }), {
      maxLength: 12,
    }),
    security: fc.array(fc.record({ step: fc.nat(50), evidence: text, at: time }), { maxLength: 5 }),
    transcript: fc.array(fc.record({ content: fc.option(text), result: json }), { maxLength: 8 }),
    output: fc.option(fc.oneof(text, fc.constant('long '.repeat(3000)))),
    turns: fc.option(fc.array(text, { maxLength: 3 }), { nil: undefined }),
    completed: time,
  })
  .map((g): AttemptRecord => {
    const policyId = eventIds(RUN, g.attempt, 'policy');
    const securityId = eventIds(RUN, g.attempt, 'security');
    const policy_events = g.policy.map((p, i): PolicyEvent => ({
      event_id: g.numbered ? policyId(i + 1) : g.otherId,
      run_id: RUN,
      attempt: g.attempt,
      sequence: i + 1,
      step: p.step,
      policy_id: 'p',
      policy_type: 'max_tool_calls',
      decision: 'allow',
      tool: p.tool,
      arguments: p.arguments,
      reason: p.reason,
      created_at: p.at,
    }));
    const security_events = g.security.map((s, i): SecurityEvent => ({
      event_id: securityId(i + 1),
      run_id: RUN,
      attempt: g.attempt,
      sequence: g.numbered ? i + 1 : i + 2,
      step: s.step,
      kind: 'prompt_injection',
      action: 'detected',
      risk: { score: 0.6, level: 'medium' },
      source: { type: 'tool_result', tool: 't' },
      evidence: s.evidence,
      mutation_id: null,
      created_at: s.at,
    }));
    return {
      attempt: g.attempt,
      mutation_id: null,
      repeat: 1,
      status: 'passed',
      unsafe: false,
      checks: [{ criterion: { type: 'completes' }, passed: true, detail: 'the agent gave a final output' }],
      steps: g.transcript.length,
      duration_ms: 5,
      error: null,
      run_id: RUN,
      started_at: isoMicros(new Date(START)),
      completed_at: g.completed,
      output: g.output,
      ...(g.turns ? { turn_outputs: g.turns } : {}),
      transcript: g.transcript.map((t) => ({
        type: 'message' as const,
        role: 'assistant' as const,
        content: t.content,
        notes: [JSON.stringify(t.result)],
      })),
      policy_events,
      security_events,
    } as AttemptRecord;
  });

/** The attributes as the store would hand them back: binary as Uint8Array, through JSON for the rest. */
function throughStore(attrs: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(attrs)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, Buffer.isBuffer(v) ? new Uint8Array(v) : JSON.parse(JSON.stringify(v))]),
  );
}

describe('stored attempt attributes', () => {
  it('read back as the attempt stored, its events and transcript to the JSON text', () => {
    fc.assert(
      fc.property(attemptArb, (a) => {
        // Act
        const back = decodeAttempt(throughStore(storedAttemptAttributes(a)), RUN, true);
        // Assess
        expect(back).toEqual(a);
        for (const k of ['policy_events', 'security_events', 'transcript', 'checks', 'output', 'turn_outputs'] as const) {
          expect(JSON.stringify(back[k])).toBe(JSON.stringify(a[k]));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('take the compact format, keeping whole the events the engine did not number', () => {
    fc.assert(
      fc.property(attemptArb, (a) => {
        // Act
        const attrs = storedAttemptAttributes(a);
        // Assess
        expect(attrs.body_dict).toBe(1);
        expect(Object.keys(attrs).filter((k) => !['body_z', 'body_dict', 'output_gz'].includes(k))).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });
});
