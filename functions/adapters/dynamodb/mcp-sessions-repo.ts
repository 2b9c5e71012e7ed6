// MCP sessions of `mcp` target attempts (access pattern 28 of keys.ts): one item per attempt. Calls are appended with
// a condition on the session's token, state and call count, so concurrent calls of one agent (and the SDK's own retries)
// land each exactly once, in one order; the worker's `answer` closes the invoke with a conditional update too.
import type { AppendResult, McpCall, McpSession, McpSessionsRepo } from '../../core/ports';
import { keys } from './keys';
import { getItem, putIf, updateIf } from './table';

type Item = Record<string, unknown>;
/** A call as stored: arguments as JSON text (any JSON the agent sent, numbers exactly as sent), and the append's nonce. */
interface StoredCall {
  id: string;
  name: string;
  args: string;
  turn: number;
  nonce: string;
}

export class DynamoMcpSessionsRepo implements McpSessionsRepo {
  async get(runId: string, attempt: number): Promise<McpSession | null> {
    const item = await getItem(keys.mcpSession(runId, attempt), true);
    return item ? toSession(item) : null;
  }

  async put(session: McpSession): Promise<void> {
    const { calls, ...rest } = session;
    await putIf({
      Item: { ...keys.mcpSession(session.run_id, session.attempt), entity: 'mcp_session', ...rest, calls: calls.map((c) => stored(c, '')) },
    });
  }

  async append(runId: string, attempt: number, tokenHash: string, count: number, call: McpCall): Promise<AppendResult> {
    const nonce = `${Date.now().toString(36)}.${Math.random().toString(36).slice(2)}`;
    const written = await updateIf({
      Key: keys.mcpSession(runId, attempt),
      UpdateExpression: 'SET calls = list_append(calls, :call)',
      ConditionExpression: 'attribute_exists(pk) AND token_hash = :token AND #state = :open AND size(calls) = :count',
      ExpressionAttributeNames: { '#state': 'state' },
      ExpressionAttributeValues: { ':call': [stored(call, nonce)], ':token': tokenHash, ':open': 'open', ':count': count },
      ReturnValues: 'NONE',
    });
    if (written) return 'appended';
    // A write whose answer was lost and retried by the SDK fails its own condition: it is ours if our nonce is there.
    const item = await getItem(keys.mcpSession(runId, attempt), true);
    if (!item || item.token_hash !== tokenHash || item.state !== 'open') return 'refused';
    const calls = (item.calls as StoredCall[] | undefined) ?? [];
    if (calls[count]?.nonce === nonce) return 'appended';
    return 'conflict';
  }

  async markOver(runId: string, attempt: number, tokenHash: string): Promise<void> {
    await updateIf({
      Key: keys.mcpSession(runId, attempt),
      UpdateExpression: 'SET #over = :yes',
      ConditionExpression: 'attribute_exists(pk) AND token_hash = :token AND #state = :open',
      ExpressionAttributeNames: { '#over': 'over', '#state': 'state' },
      ExpressionAttributeValues: { ':yes': true, ':token': tokenHash, ':open': 'open' },
      ReturnValues: 'NONE',
    });
  }

  async answer(runId: string, attempt: number, tokenHash: string, turn: number, output: string | null): Promise<McpSession | null> {
    const item = await getItem(keys.mcpSession(runId, attempt), true);
    if (!item || item.token_hash !== tokenHash) return null;
    const outputs = ((item.outputs as Array<string | null> | undefined) ?? []).slice(0, turn - 1);
    while (outputs.length < turn - 1) outputs.push(null);
    outputs.push(output);
    const ended = await updateIf({
      Key: keys.mcpSession(runId, attempt),
      UpdateExpression: 'SET #state = :answered, outputs = :outputs',
      ConditionExpression: 'attribute_exists(pk) AND token_hash = :token AND #turn = :turn',
      ExpressionAttributeNames: { '#state': 'state', '#turn': 'turn' },
      ExpressionAttributeValues: { ':answered': 'answered', ':outputs': outputs, ':token': tokenHash, ':turn': turn },
    });
    return ended ? toSession(ended) : null;
  }
}

function stored(c: McpCall, nonce: string): StoredCall {
  return { id: c.id, name: c.name, args: JSON.stringify(c.arguments), turn: c.turn, nonce };
}

function toSession(item: Item): McpSession {
  const calls = ((item.calls as StoredCall[] | undefined) ?? []).map((c) => ({
    id: c.id,
    name: c.name,
    arguments: JSON.parse(c.args) as Record<string, unknown>,
    turn: Number(c.turn),
  }));
  return {
    project_id: String(item.project_id),
    run_id: String(item.run_id),
    attempt: Number(item.attempt),
    token_hash: String(item.token_hash),
    state: item.state === 'open' ? 'open' : 'answered',
    turn: Number(item.turn),
    calls,
    outputs: (item.outputs as Array<string | null> | undefined) ?? [],
    over: item.over === true,
    campaign_version: item.campaign_version === null || item.campaign_version === undefined ? null : Number(item.campaign_version),
    ...(typeof item.trace_id === 'string' ? { trace_id: item.trace_id } : {}),
    ...(typeof item.campaign_id === 'string' ? { campaign_id: item.campaign_id } : {}),
    expires_at: Number(item.expires_at),
  };
}
