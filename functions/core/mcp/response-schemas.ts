// The MCP endpoint's bodies for the OpenAPI document (its own protocol: JSON-RPC 2.0 in, JSON-RPC 2.0 out). Read only
// by the document and tests, never by the handler.
import { errorSchema } from '../openapi/response-blocks';
import { z } from '../openapi/zod';

const id = z.union([z.string(), z.number()]);
const rpcError = z.object({ code: z.number().int(), message: z.string(), data: z.unknown().optional() });

const message = z
  .object({
    jsonrpc: z.literal('2.0'),
    id: id.optional().openapi({ description: 'Absent for a notification.' }),
    method: z.string().openapi({ description: 'initialize, ping, tools/list, tools/call, or a notifications/* method.' }),
    params: z.record(z.string(), z.unknown()).optional(),
  })
  .openapi('McpMessage', { description: 'A JSON-RPC 2.0 request or notification.' });

export const mcpRequestSchema = z
  .union([message, z.array(message).min(1)])
  .openapi('McpRequest', { description: 'One JSON-RPC message, or a batch (protocol version 2025-03-26).' });

const answer = z
  .object({
    jsonrpc: z.literal('2.0'),
    id,
    result: z.record(z.string(), z.unknown()).optional().openapi({
      description: 'initialize: protocolVersion, capabilities, serverInfo; tools/list: tools; tools/call: content, structuredContent, isError.',
    }),
    error: rpcError.optional(),
  })
  .openapi('McpAnswer', { description: 'A JSON-RPC 2.0 response: a result or an error.' });

export const mcpResponseSchema = z
  .union([answer, z.array(answer)])
  .openapi('McpResponse', { description: 'The answer to each request sent (an array for a batch).' });

/** An error of the endpoint itself (JSON-RPC, id null), or of the gateway in front of it (the service's error body). */
export const mcpErrorSchema = z
  .union([z.object({ jsonrpc: z.literal('2.0'), id: z.null(), error: rpcError }).openapi('JsonRpcError'), errorSchema])
  .openapi('McpError');
