// POST /v1/mcp/{run_id}/{attempt}: the MCP endpoint of one `mcp` target attempt (core/mcp). Outside the API-key
// authorizer: the attempt's bearer token, checked against its session, is the only credential it takes.
import { POST_MCP } from '../../lib/routes';
import { openMcpAttempt } from '../core/mcp/endpoint';
import { handleMcpHttp } from '../core/mcp/protocol';
import { MCP_BODY_LIMIT } from '../core/limits';
import { route } from '../http-chain/route';

/** The server version MCP clients are told: the protocol dialect of this endpoint, not the package's release. */
const SERVER_VERSION = '1.0.0';

export const handler = route(POST_MCP, async ({ deps, params, headers, event }) => {
  const body =
    event.body === null || event.body === undefined ? null : event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
  if (body !== null && Buffer.byteLength(body, 'utf8') > MCP_BODY_LIMIT) {
    return {
      status: 413,
      headers: { 'Content-Type': 'application/json' },
      text: JSON.stringify({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32600, message: `Invalid Request: the body is over ${MCP_BODY_LIMIT} bytes.` },
      }),
    };
  }
  const attempt = /^[1-9]\d{0,3}$/.test(params.attempt ?? '') ? Number(params.attempt) : null;
  const answer = await handleMcpHttp(
    { method: event.httpMethod, headers, body },
    async (token) => (attempt === null ? null : openMcpAttempt(deps, params.run_id, attempt, token)),
    SERVER_VERSION,
  );
  return { status: answer.status, headers: answer.headers, text: answer.body };
});
