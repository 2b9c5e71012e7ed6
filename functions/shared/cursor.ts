// Opaque, tamper-evident pagination cursors: the store's last key, bound to the project and the listing, HMAC-signed.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { ValidationError } from '../core/errors';
import { DynamoConfigRepo } from '../adapters/dynamodb/config-repo';
import { optionalEnv } from '../adapters/env';

let keyPromise: Promise<Buffer> | undefined;

/**
 * The signing key: RTS_CURSOR_SECRET when set, else a random key kept in the table (created once, first writer wins),
 * so every function of a deployment signs and verifies with the same key without extra infrastructure.
 */
async function cursorKey(): Promise<Buffer> {
  const fromEnv = optionalEnv('RTS_CURSOR_SECRET');
  if (fromEnv) return Buffer.from(fromEnv, 'utf8');
  keyPromise ??= new DynamoConfigRepo().cursorSecret().catch((err) => {
    keyPromise = undefined;
    throw err;
  });
  return keyPromise;
}

export function resetCursorKey(): void {
  keyPromise = undefined;
}

const sign = (key: Buffer, payload: string) => createHmac('sha256', key).update(payload).digest('base64url').slice(0, 32);

export async function encodeCursor(scope: string, last: Record<string, unknown> | undefined): Promise<string | null> {
  if (!last) return null;
  const payload = Buffer.from(JSON.stringify({ s: scope, k: last })).toString('base64url');
  return `${payload}.${sign(await cursorKey(), payload)}`;
}

/** Verifies and decodes a cursor; anything forged, truncated or from another listing is a 422. */
export async function decodeCursor(scope: string, cursor: string | undefined): Promise<Record<string, unknown> | undefined> {
  if (cursor === undefined) return undefined;
  const bad = () => new ValidationError('The cursor is invalid.', [{ path: 'cursor', message: 'not a cursor issued by this listing' }]);
  const [payload, mac, extra] = cursor.split('.');
  if (!payload || !mac || extra !== undefined) throw bad();
  const expected = Buffer.from(sign(await cursorKey(), payload));
  const given = Buffer.from(mac);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw bad();
  try {
    const parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { s: string; k: Record<string, unknown> };
    if (parsed.s !== scope || typeof parsed.k !== 'object' || parsed.k === null) throw bad();
    return parsed.k;
  } catch {
    throw bad();
  }
}
