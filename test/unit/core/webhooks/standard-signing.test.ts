// Standard Webhooks headers on every delivery, checked against the official `standardwebhooks` package both ways:
// it verifies what we sign, and verifyStandardWebhook verifies what it signs, with a 5-minute timestamp tolerance.
import { createHmac, randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { deliveryHeaders, standardKey, standardSignature } from '../../../../functions/core/webhooks/signing';
import { newWebhookSecret } from '../../../../functions/core/ids';
import { verifySignature, verifyStandardWebhook } from '../../../../packages/sdk/src/verify';

const BODY =
  '{"created_at":"2026-11-21T23:59:01.123456+00:00","data":{"run_id":"r1","note":"naïve ✓"},"event_type":"run.completed","project_id":"p"}';
const ID = '3f2b6c1e-8f4a-4d5b-9c7e-1a2b3c4d5e6f';
const NOW_MS = Date.parse('2026-11-21T12:00:00Z');
const TS = NOW_MS / 1000;

function headersFor(secrets: string[], timestamp = TS, body = BODY) {
  return deliveryHeaders({ eventType: 'run.completed', deliveryId: ID, webhookId: 'wh_x', body, secrets, timestamp, userAgent: 'rts-webhooks/1' });
}

afterEach(() => jest.restoreAllMocks());

describe('standardSignature', () => {
  it('is v1, then the base64 HMAC-SHA256 of "id.timestamp.body" keyed with the base64-decoded bytes after whsec_', () => {
    const key = randomBytes(32);
    const secret = `whsec_${key.toString('base64')}`;

    const signature = standardSignature(ID, TS, BODY, secret);

    const expected = createHmac('sha256', key).update(`${ID}.${TS}.${BODY}`, 'utf8').digest('base64');
    expect(signature).toBe(`v1,${expected}`);
    expect(standardKey(secret).equals(key)).toBe(true);
  });

  it("matches the official package's own signature for the same id, time and body", () => {
    const secret = newWebhookSecret();

    expect(standardSignature(ID, TS, BODY, secret)).toBe(new Webhook(secret).sign(ID, new Date(TS * 1000), BODY));
  });
});

describe('deliveryHeaders', () => {
  it('keeps X-Service-Signature as the sha256= HMAC keyed with the UTF-8 secret, and adds webhook-id, -timestamp, -signature', () => {
    const secret = newWebhookSecret();

    const headers = headersFor([secret]);

    expect(headers).toEqual({
      'Content-Type': 'application/json',
      'User-Agent': 'rts-webhooks/1',
      'X-Service-Event': 'run.completed',
      'X-Service-Delivery': ID,
      'X-Service-Webhook-Id': 'wh_x',
      'X-Service-Signature': `sha256=${createHmac('sha256', Buffer.from(secret, 'utf8')).update(BODY).digest('hex')}`,
      'webhook-id': ID,
      'webhook-timestamp': String(TS),
      'webhook-signature': standardSignature(ID, TS, BODY, secret),
    });
  });

  it('carries one v1 signature per valid secret, space-separated, each verifying with the official package', () => {
    const [current, previous] = [newWebhookSecret(), newWebhookSecret()];
    jest.spyOn(Date, 'now').mockReturnValue(NOW_MS);

    const headers = headersFor([current, previous]);

    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(new Webhook(current).verify(BODY, headers)).toEqual(JSON.parse(BODY));
    expect(new Webhook(previous).verify(BODY, headers)).toEqual(JSON.parse(BODY));
    expect(() => new Webhook(newWebhookSecret()).verify(BODY, headers)).toThrow('No matching signature found');
    expect(verifySignature(BODY, headers['X-Service-Signature'], current)).toBe(true);
  });

  it('is refused by the official package once its timestamp is more than 5 minutes old, or in the future', () => {
    const secret = newWebhookSecret();
    const headers = headersFor([secret]);

    jest.spyOn(Date, 'now').mockReturnValue(NOW_MS + 301_000);
    expect(() => new Webhook(secret).verify(BODY, headers)).toThrow('Message timestamp too old');
    jest.spyOn(Date, 'now').mockReturnValue(NOW_MS - 301_000);
    expect(() => new Webhook(secret).verify(BODY, headers)).toThrow('Message timestamp too new');
  });
});

describe('verifyStandardWebhook', () => {
  const secret = newWebhookSecret();
  const now = () => NOW_MS;

  it('accepts our headers over the raw body (string or Buffer), with lowercase, mixed-case or Fetch headers', () => {
    const headers = headersFor([secret]);
    const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));

    expect(verifyStandardWebhook(BODY, headers, secret, { now })).toBe(true);
    expect(verifyStandardWebhook(Buffer.from(BODY, 'utf8'), lower, secret, { now })).toBe(true);
    expect(verifyStandardWebhook(BODY, new Headers(headers), secret, { now })).toBe(true);
  });

  it('accepts a message the official package signed, and any matching one of several signatures', () => {
    const signed = new Webhook(secret).sign('msg_2Lh9', new Date(TS * 1000), BODY);
    const other = new Webhook(newWebhookSecret()).sign('msg_2Lh9', new Date(TS * 1000), BODY);
    const headers = { 'webhook-id': 'msg_2Lh9', 'webhook-timestamp': String(TS), 'webhook-signature': `v2,abc ${other} ${signed}` };

    expect(verifyStandardWebhook(BODY, headers, secret, { now })).toBe(true);
    expect(verifyStandardWebhook(BODY, { ...headers, 'webhook-signature': other }, secret, { now })).toBe(false);
  });

  it('refuses a timestamp outside the tolerance (5 minutes by default, either way) and honours a custom one', () => {
    const headers = headersFor([secret]);

    expect(verifyStandardWebhook(BODY, headers, secret, { now: () => NOW_MS + 300_000 })).toBe(true);
    expect(verifyStandardWebhook(BODY, headers, secret, { now: () => NOW_MS + 301_000 })).toBe(false);
    expect(verifyStandardWebhook(BODY, headers, secret, { now: () => NOW_MS - 301_000 })).toBe(false);
    expect(verifyStandardWebhook(BODY, headers, secret, { now: () => NOW_MS + 30_000, toleranceSeconds: 10 })).toBe(false);
  });

  it('uses the real clock by default: a fresh delivery verifies, one signed 10 minutes ago does not', () => {
    const fresh = headersFor([secret], Math.floor(Date.now() / 1000));
    const stale = headersFor([secret], Math.floor(Date.now() / 1000) - 600);

    expect(verifyStandardWebhook(BODY, fresh, secret)).toBe(true);
    expect(verifyStandardWebhook(BODY, stale, secret)).toBe(false);
  });

  it.each([
    ['another secret', (h: Record<string, string>) => h, newWebhookSecret(), BODY],
    ['a changed body', (h: Record<string, string>) => h, secret, BODY.replace('r1', 'r2')],
    ['a changed id', (h: Record<string, string>) => ({ ...h, 'webhook-id': 'other' }), secret, BODY],
    ['a changed timestamp', (h: Record<string, string>) => ({ ...h, 'webhook-timestamp': String(TS + 1) }), secret, BODY],
    ['no webhook-id', ({ 'webhook-id': _, ...h }: Record<string, string>) => h, secret, BODY],
    ['no signature', ({ 'webhook-signature': _, ...h }: Record<string, string>) => h, secret, BODY],
    ['a non-numeric timestamp', (h: Record<string, string>) => ({ ...h, 'webhook-timestamp': '12a' }), secret, BODY],
    [
      'a signature without its version',
      (h: Record<string, string>) => ({ ...h, 'webhook-signature': h['webhook-signature'].slice(3) }),
      secret,
      BODY,
    ],
    ['a v2 signature', (h: Record<string, string>) => ({ ...h, 'webhook-signature': h['webhook-signature'].replace('v1,', 'v2,') }), secret, BODY],
  ])('answers false, without throwing, for %s', (_name, change, key, body) => {
    expect(verifyStandardWebhook(body, change(headersFor([secret])), key, { now })).toBe(false);
  });

  it('answers false for an empty secret and a body that is neither string nor Buffer', () => {
    const headers = headersFor([secret]);

    expect(verifyStandardWebhook(BODY, headers, 'whsec_', { now })).toBe(false);
    expect(verifyStandardWebhook({} as unknown as string, headers, secret, { now })).toBe(false);
  });
});
