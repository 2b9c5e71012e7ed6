// Opaque, tamper-evident pagination cursors: the store's last key, bound to the project and the listing, HMAC-signed
// with the deployment's cursor key (deps.cursorKeys, adapters/secrets/cursor-keys.ts).
import { createHmac, timingSafeEqual } from 'node:crypto';
import { ValidationError } from '../core/errors';
import type { Deps } from '../core/ports';

/** What signing and verifying need: the key, read through the deps. */
export type CursorDeps = Pick<Deps, 'cursorKeys'>;

const sign = (key: Buffer, payload: string) => createHmac('sha256', key).update(payload).digest('base64url').slice(0, 32);

export async function encodeCursor(deps: CursorDeps, scope: string, last: Record<string, unknown> | undefined): Promise<string | null> {
  if (!last) return null;
  const payload = Buffer.from(JSON.stringify({ s: scope, k: last })).toString('base64url');
  return `${payload}.${sign(await deps.cursorKeys.current(), payload)}`;
}

/** Verifies and decodes a cursor; anything forged, truncated or from another listing is a 422. */
export async function decodeCursor(deps: CursorDeps, scope: string, cursor: string | undefined): Promise<Record<string, unknown> | undefined> {
  if (cursor === undefined) return undefined;
  const bad = () => new ValidationError('The cursor is invalid.', [{ path: 'cursor', message: 'not a cursor issued by this listing' }]);
  const [payload, mac, extra] = cursor.split('.');
  if (!payload || !mac || extra !== undefined) throw bad();
  const expected = Buffer.from(sign(await deps.cursorKeys.current(), payload));
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
