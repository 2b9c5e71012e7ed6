// The package's verifiers and signers against the service's own signing (functions/core/webhooks/signing.ts, a
// separate implementation) and the official standardwebhooks package: each side accepts what the others sign.
import fc from 'fast-check';
import { Webhook } from 'standardwebhooks';
import { newWebhookSecret } from '../../../functions/core/ids';
import {
  deliveryHeaders,
  signPayload as serviceSignPayload,
  standardSignature as serviceStandardSignature,
} from '../../../functions/core/webhooks/signing';
import { signPayload, standardSignature, verifySignature, verifyStandardWebhook } from '../../../packages/sdk/src/verify';

const ID = '3f2b6c1e-8f4a-4d5b-9c7e-1a2b3c4d5e6f';
const NOW_MS = Date.parse('2026-11-21T12:00:00Z');
const TS = NOW_MS / 1000;
const BODY = '{"created_at":"2026-11-21T12:00:00.000000+00:00","data":{"note":"naïve ✓"},"event_type":"webhook.test","project_id":"p"}';
const now = () => NOW_MS;

function delivery(secret: string, body = BODY, timestamp = TS) {
  return deliveryHeaders({
    eventType: 'webhook.test',
    deliveryId: ID,
    webhookId: 'wh_x',
    body,
    secrets: [secret],
    timestamp,
    userAgent: 'rts-webhooks/1',
  });
}

describe('@rts/sdk/verify against the service and standardwebhooks', () => {
  it('signs exactly as the service does, for any secret and body', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.string(), (body, key) => {
        const secret = `whsec_${Buffer.from(key).toString('base64')}`;
        expect(signPayload(body, secret)).toBe(serviceSignPayload(body, secret));
        expect(standardSignature(ID, TS, body, secret)).toBe(serviceStandardSignature(ID, TS, body, secret));
      }),
      { numRuns: 50 },
    );
  });

  it('verifies a delivery as the service signs it: the body as a string, a Buffer or a Uint8Array; headers as node:http, any case, or Fetch Headers', () => {
    const secret = newWebhookSecret();
    const headers = delivery(secret);
    const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
    for (const body of [BODY, Buffer.from(BODY), new Uint8Array(Buffer.from(BODY))]) {
      expect(verifySignature(body, lower['x-service-signature'], secret)).toBe(true);
      expect(verifyStandardWebhook(body, lower, secret, { now })).toBe(true);
      expect(verifyStandardWebhook(body, headers, secret, { now })).toBe(true);
      expect(verifyStandardWebhook(body, new Headers(headers), secret, { now })).toBe(true);
    }
  });

  it('accepts what the official standardwebhooks package signs, and the package accepts what this one signs', () => {
    const secret = newWebhookSecret();
    const theirs = new Webhook(secret).sign(ID, new Date(NOW_MS), BODY);
    const headers = { 'webhook-id': ID, 'webhook-timestamp': String(TS), 'webhook-signature': theirs };
    expect(verifyStandardWebhook(BODY, headers, secret, { now })).toBe(true);

    jest.useFakeTimers({ now: NOW_MS });
    try {
      const ours = { ...headers, 'webhook-signature': standardSignature(ID, TS, BODY, secret) };
      expect(new Webhook(secret).verify(BODY, ours)).toEqual(JSON.parse(BODY));
    } finally {
      jest.useRealTimers();
    }
  });

  it('refuses a timestamp outside the tolerance, a changed byte, another secret, and anything malformed, without throwing', () => {
    const secret = newWebhookSecret();
    const headers = Object.fromEntries(Object.entries(delivery(secret)).map(([k, v]) => [k.toLowerCase(), v]));
    const stale = Object.fromEntries(Object.entries(delivery(secret, BODY, TS - 301)).map(([k, v]) => [k.toLowerCase(), v]));
    expect(verifyStandardWebhook(BODY, stale, secret, { now })).toBe(false);
    expect(verifyStandardWebhook(BODY, stale, secret, { now, toleranceSeconds: 600 })).toBe(true);
    expect(verifyStandardWebhook(BODY.replace('naïve', 'naive'), headers, secret, { now })).toBe(false);
    expect(verifySignature(BODY.replace('naïve', 'naive'), headers['x-service-signature'], secret)).toBe(false);
    const other = newWebhookSecret();
    expect(verifyStandardWebhook(BODY, headers, other, { now })).toBe(false);
    expect(verifySignature(BODY, headers['x-service-signature'], other)).toBe(false);
    for (const bad of [undefined, null, '', 'sha256=zz', ['sha256=00'], 42]) expect(verifySignature(BODY, bad as string, secret)).toBe(false);
    for (const bad of [{}, { 'webhook-id': ID }, { ...headers, 'webhook-timestamp': 'yesterday' }, null])
      expect(verifyStandardWebhook(BODY, bad as Record<string, string>, secret, { now })).toBe(false);
    expect(verifyStandardWebhook({} as unknown as string, headers, secret, { now })).toBe(false);
  });

  it('refuses a NaN, infinite or negative tolerance with a RangeError instead of accepting a year-old delivery', () => {
    const secret = newWebhookSecret();
    const yearOld = Object.fromEntries(Object.entries(delivery(secret, BODY, TS - 365 * 86_400)).map(([k, v]) => [k.toLowerCase(), v]));
    const fresh = Object.fromEntries(Object.entries(delivery(secret)).map(([k, v]) => [k.toLowerCase(), v]));
    // What `Number(process.env.UNSET)` and friends produce.
    for (const bad of [NaN, Number(undefined), Infinity, -Infinity, -1, -0.5, '300' as unknown as number]) {
      expect(() => verifyStandardWebhook(BODY, yearOld, secret, { now, toleranceSeconds: bad })).toThrow(RangeError);
      expect(() => verifyStandardWebhook(BODY, fresh, secret, { now, toleranceSeconds: bad })).toThrow(/toleranceSeconds must be a finite number/);
    }
    // A clock that answers NaN would make every timestamp look fresh the same way.
    expect(() => verifyStandardWebhook(BODY, yearOld, secret, { now: () => NaN })).toThrow(RangeError);
    // Valid tolerances still work: 0 is "this very second", and the default stays 5 minutes.
    expect(verifyStandardWebhook(BODY, fresh, secret, { now, toleranceSeconds: 0 })).toBe(true);
    expect(verifyStandardWebhook(BODY, yearOld, secret, { now, toleranceSeconds: 0 })).toBe(false);
    expect(verifyStandardWebhook(BODY, yearOld, secret, { now, toleranceSeconds: undefined })).toBe(false);
    expect(verifyStandardWebhook(BODY, yearOld, secret, { now, toleranceSeconds: 366 * 86_400 })).toBe(true);
  });
});
