// Attempt tokens of the MCP endpoint: unguessable, one per invoke of one attempt, stored only as a hash.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const MCP_TOKEN_PREFIX = 'rts_mcp_';

/** A new token: 256 random bits. */
export function newMcpToken(): string {
  return `${MCP_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
}

export function mcpTokenHash(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Whether `token` hashes to `storedHash`, compared in constant time. */
export function mcpTokenMatches(token: string, storedHash: string): boolean {
  const a = Buffer.from(mcpTokenHash(token), 'hex');
  const b = Buffer.from(storedHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The session id issued at initialize: derived from the token's hash, so every process answering the attempt knows it. */
export function mcpSessionId(tokenHash: string): string {
  return createHash('sha256').update(`session:${tokenHash}`, 'utf8').digest('hex').slice(0, 32);
}
