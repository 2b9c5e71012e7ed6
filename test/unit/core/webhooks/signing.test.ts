// The delivery body is canonical JSON of the four envelope fields; signatures are HMAC-SHA256 and verify only over the raw bytes.
import { deliveryBody, signPayload } from '../../../../functions/core/webhooks/signing';
import type { EventEnvelope } from '../../../../functions/core/events';
import { verifySignature } from '../../../../packages/sdk/src/verify';

const envelope: EventEnvelope = {
  event_type: 'run.completed',
  project_id: '0b7d3f0e-4f7a-4c52-9b1e-0c7d2e9f4a11',
  created_at: '2026-11-21T23:59:01.123456+00:00',
  data: { status: 'done', run_id: 'r1', nested: { z: 1, a: [{ y: 2, b: 'ü ✓' }] }, pass_rate: 0.75 },
};

describe('deliveryBody', () => {
  it('sorts keys at every depth and uses compact separators', () => {
    expect(deliveryBody(envelope)).toBe(
      '{"created_at":"2026-11-21T23:59:01.123456+00:00","data":{"nested":{"a":[{"b":"ü ✓","y":2}],"z":1},"pass_rate":0.75,"run_id":"r1","status":"done"},' +
        '"event_type":"run.completed","project_id":"0b7d3f0e-4f7a-4c52-9b1e-0c7d2e9f4a11"}',
    );
  });

  it('sends only the four envelope fields, whatever else the object carries', () => {
    const withExtra = { ...envelope, id: 'bus-id', internal: true } as EventEnvelope;

    expect(Object.keys(JSON.parse(deliveryBody(withExtra)))).toEqual(['created_at', 'data', 'event_type', 'project_id']);
  });
});

describe('signPayload', () => {
  it('matches the published HMAC-SHA256 test vector, as sha256=<lowercase hex>', () => {
    expect(signPayload('The quick brown fox jumps over the lazy dog', 'key')).toBe(
      'sha256=f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8',
    );
  });

  it('signs the same bytes whether given a string or its UTF-8 buffer', () => {
    const body = deliveryBody(envelope);
    expect(signPayload(Buffer.from(body, 'utf8'), 'whsec_x')).toBe(signPayload(body, 'whsec_x'));
  });
});

describe('verifySignature', () => {
  const secret = 'whsec_test-secret';
  const body = deliveryBody(envelope);
  const header = signPayload(body, secret);

  it('accepts the signature over the raw body, as a string or as bytes', () => {
    expect(verifySignature(body, header, secret)).toBe(true);
    expect(verifySignature(Buffer.from(body, 'utf8'), header, secret)).toBe(true);
  });

  it('rejects another secret, a changed body, and a re-serialised (pretty-printed) body', () => {
    expect(verifySignature(body, header, 'whsec_other')).toBe(false);
    expect(verifySignature(body.replace('0.75', '0.76'), header, secret)).toBe(false);
    expect(verifySignature(JSON.stringify(JSON.parse(body), null, 2), header, secret)).toBe(false);
  });

  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['prefix only', 'sha256='],
    ['another algorithm', header.replace('sha256=', 'sha1=')],
    ['uppercase hex', `sha256=${header.slice(7).toUpperCase()}`],
    ['one character short', header.slice(0, -1)],
    ['one character long', `${header}0`],
    ['not hex', `sha256=${'z'.repeat(64)}`],
    ['bare hex without prefix', header.slice(7)],
  ])('answers false, without throwing, for a %s header', (_name, value) => {
    expect(verifySignature(body, value as string | undefined, secret)).toBe(false);
  });

  it('answers false for an empty secret and for a body that is neither string nor Buffer', () => {
    expect(verifySignature(body, signPayload(body, ''), '')).toBe(false);
    expect(verifySignature({} as unknown as string, header, secret)).toBe(false);
  });

  it('keys the HMAC with the UTF-8 bytes of a non-ASCII secret', () => {
    const unicodeSecret = 'whsec_clé-ü';
    const { createHmac } = jest.requireActual<typeof import('node:crypto')>('node:crypto');
    const expected = `sha256=${createHmac('sha256', Buffer.from(unicodeSecret, 'utf8')).update(body).digest('hex')}`;

    expect(signPayload(body, unicodeSecret)).toBe(expected);
    expect(verifySignature(body, expected, unicodeSecret)).toBe(true);
  });
});
