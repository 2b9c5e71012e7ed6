import { MCP_TOKEN_PREFIX, mcpSessionId, mcpTokenHash, mcpTokenMatches, newMcpToken } from '../../../../functions/core/mcp/token';

describe('MCP attempt tokens', () => {
  it('are 256 random bits, base64url, behind the rts_mcp_ prefix, never twice the same', () => {
    // Act
    const tokens = Array.from({ length: 200 }, () => newMcpToken());
    // Assess
    for (const t of tokens) expect(t).toMatch(new RegExp(`^${MCP_TOKEN_PREFIX}[A-Za-z0-9_-]{43}$`));
    expect(new Set(tokens).size).toBe(tokens.length);
  });

  it('are stored as their sha256 and match only that hash', () => {
    // Prepare
    const token = newMcpToken();
    const hash = mcpTokenHash(token);
    // Act
    const matches = mcpTokenMatches(token, hash);
    const other = mcpTokenMatches(newMcpToken(), hash);
    const truncated = mcpTokenMatches(token, hash.slice(0, 32));
    const garbage = mcpTokenMatches(token, 'not hex at all');
    // Assess
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).not.toContain(token);
    expect([matches, other, truncated, garbage]).toEqual([true, false, false, false]);
  });

  it('derive a session id from the hash: stable, 32 hex, distinct per token, not the hash itself', () => {
    // Prepare
    const a = mcpTokenHash(newMcpToken());
    const b = mcpTokenHash(newMcpToken());
    // Act
    const id = mcpSessionId(a);
    // Assess
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(mcpSessionId(a)).toBe(id);
    expect(mcpSessionId(b)).not.toBe(id);
    expect(a).not.toContain(id);
  });
});
