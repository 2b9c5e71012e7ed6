// The MCP Streamable HTTP transport, server side, for the endpoint an `mcp` target's agent connects to
// (docs/connect-your-agent.md#the-mcp-endpoint): JSON-RPC 2.0 over POST, answered as JSON; GET and DELETE answered 405
// (no server-initiated stream, no client-ended session). Methods: initialize, ping, tools/list, tools/call, and the
// client's notifications. Written here rather than taken from the official SDK's server (about 390 KB bundled, the
// whole budget of a function): the official client tests it (test/integration/mcp-conformance.test.ts).
import type { McpTool, McpToolResult } from './serve';

/** Protocol versions this server speaks, newest first; a client asking for another is offered the newest. */
export const MCP_PROTOCOL_VERSIONS = ['2025-06-18', '2025-03-26'] as const;
export const MCP_SERVER_NAME = 'rts';

/** JSON-RPC error codes. */
export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const METHOD_NOT_FOUND = -32601;
export const INVALID_PARAMS = -32602;
/** Server-defined: the token is unknown, or its attempt is not being invoked (any more). */
export const UNAUTHORIZED = -32001;

export interface McpHttpRequest {
  method: string;
  /** Header names in lower case. */
  headers: Record<string, string | undefined>;
  body: string | null;
}

export interface McpHttpResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** One attempt's view of the server, once its token checked out. */
export interface McpAttemptView {
  /** The session id issued at initialize (derived from the token, so any process recognises it). */
  sessionId: string;
  tools(): Promise<McpTool[]>;
  /** Serves a call; a JsonRpcError ends it as an error answer (the attempt ended, the call was not recorded). */
  call(id: string, name: string, args: Record<string, unknown>): Promise<McpToolResult>;
}

export class JsonRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

type Id = string | number;
type Message = { jsonrpc: '2.0'; id?: Id; method?: string; params?: unknown; result?: unknown; error?: unknown };

/**
 * Answers one HTTP request to the endpoint. `open` checks the bearer token (null: not valid now). Bad input is a
 * JSON-RPC error with a 4xx status, never a 5xx; a failure of `open` or of a call (the store) propagates.
 */
export async function handleMcpHttp(
  req: McpHttpRequest,
  open: (token: string) => Promise<McpAttemptView | null>,
  serverVersion: string,
): Promise<McpHttpResponse> {
  if (req.method !== 'POST')
    return {
      status: 405,
      headers: { Allow: 'POST', 'Content-Type': 'application/json' },
      body: errorText(null, INVALID_REQUEST, 'Method not allowed: this server answers POST only (no stream, no session to end).'),
    };
  const token = bearer(req.headers.authorization);
  const view = token ? await open(token) : null;
  if (!view) {
    return {
      status: 401,
      headers: { 'Content-Type': 'application/json', 'WWW-Authenticate': 'Bearer realm="rts-mcp"' },
      body: errorText(null, UNAUTHORIZED, 'Unauthorized: the token is unknown, or its attempt is not being invoked.'),
    };
  }
  const session = req.headers['mcp-session-id'];
  if (session !== undefined && session !== view.sessionId) {
    return { status: 404, headers: { 'Content-Type': 'application/json' }, body: errorText(null, INVALID_REQUEST, 'Session not found.') };
  }
  const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (type !== 'application/json')
    return {
      status: 415,
      headers: { 'Content-Type': 'application/json' },
      body: errorText(null, INVALID_REQUEST, 'Content-Type must be application/json.'),
    };
  let parsed: unknown;
  try {
    parsed = JSON.parse(req.body ?? '');
  } catch {
    return badRequest(PARSE_ERROR, 'Parse error: the body is not JSON.');
  }
  const batch = Array.isArray(parsed);
  const messages = batch ? (parsed as unknown[]) : [parsed];
  if (messages.length === 0) return badRequest(INVALID_REQUEST, 'Invalid Request: an empty batch.');
  if (!messages.every((m) => isMessage(m)))
    return badRequest(INVALID_REQUEST, 'Invalid Request: not a JSON-RPC 2.0 request, notification or response.');
  // The header is for requests after initialize: an initialize negotiates in its params (a client may send its newest).
  const version = req.headers['mcp-protocol-version'];
  const initializing = (messages as Message[]).some((m) => m.method === 'initialize');
  if (version !== undefined && !initializing && !(MCP_PROTOCOL_VERSIONS as readonly string[]).includes(version)) {
    return badRequest(INVALID_REQUEST, `Unsupported MCP-Protocol-Version ${version.slice(0, 40)}: use one of ${MCP_PROTOCOL_VERSIONS.join(', ')}.`);
  }
  const requests = (messages as Message[]).filter((m) => m.method !== undefined && m.id !== undefined);
  if (requests.length === 0) return { status: 202, headers: {}, body: '' };
  const answers: object[] = [];
  let initialized = false;
  for (const m of requests) {
    answers.push(await answer(m, view, serverVersion));
    if (m.method === 'initialize') initialized = true;
  }
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (initialized) headers['Mcp-Session-Id'] = view.sessionId;
  return { status: 200, headers, body: JSON.stringify(batch ? answers : answers[0]) };
}

async function answer(m: Message, view: McpAttemptView, serverVersion: string): Promise<object> {
  const id = m.id as Id;
  const params = m.params;
  try {
    switch (m.method) {
      case 'initialize': {
        const asked = isObject(params) && typeof params.protocolVersion === 'string' ? params.protocolVersion : '';
        const protocolVersion = (MCP_PROTOCOL_VERSIONS as readonly string[]).includes(asked) ? asked : MCP_PROTOCOL_VERSIONS[0];
        return ok(id, {
          protocolVersion,
          capabilities: { tools: { listChanged: false } },
          serverInfo: { name: MCP_SERVER_NAME, version: serverVersion },
          instructions: 'The tools of a recorded agent run, served by rts for one replay attempt.',
        });
      }
      case 'ping':
        return ok(id, {});
      case 'tools/list':
        return ok(id, { tools: await view.tools() });
      case 'tools/call': {
        if (!isObject(params) || typeof params.name !== 'string' || params.name === '') {
          throw new JsonRpcError(INVALID_PARAMS, 'Invalid params: tools/call needs a tool name.');
        }
        const args = params.arguments;
        if (args !== undefined && args !== null && !isObject(args))
          throw new JsonRpcError(INVALID_PARAMS, 'Invalid params: arguments must be an object.');
        return ok(id, await view.call(String(id), params.name, (args ?? {}) as Record<string, unknown>));
      }
      default:
        throw new JsonRpcError(METHOD_NOT_FOUND, `Method not found: ${String(m.method).slice(0, 100)}`);
    }
  } catch (err) {
    if (err instanceof JsonRpcError) return { jsonrpc: '2.0', id, error: { code: err.code, message: err.message } };
    throw err;
  }
}

function bearer(header: string | undefined): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match ? match[1] : null;
}

function isMessage(v: unknown): v is Message {
  if (!isObject(v) || v.jsonrpc !== '2.0') return false;
  const idOk = v.id === undefined || typeof v.id === 'string' || (typeof v.id === 'number' && Number.isFinite(v.id));
  if (!idOk) return false;
  if (v.method !== undefined) return typeof v.method === 'string' && (v.params === undefined || isObject(v.params) || Array.isArray(v.params));
  return v.id !== undefined && ('result' in v || 'error' in v);
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const ok = (id: Id, result: unknown) => ({ jsonrpc: '2.0', id, result });

function errorText(id: Id | null, code: number, message: string): string {
  return JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } });
}

function badRequest(code: number, message: string): McpHttpResponse {
  return { status: 400, headers: { 'Content-Type': 'application/json' }, body: errorText(null, code, message) };
}
