// The checks every fuzzed response must pass besides its status class: the API's error body (docs/api.md#errors), the
// MCP endpoint's JSON-RPC errors, and no internals shown. test/helpers/fuzz-harness.ts applies them.

/** The error codes each status may carry. */
const STATUS_CODES: Record<number, RegExp> = {
  400: /^(invalid_json|bad_request)$/,
  431: /^request_header_fields_too_large$/,
  401: /^unauthorized$/,
  404: /^(not_found|route_not_found)$/,
  405: /^method_not_allowed$/,
  409: /^([a-z_]+_)?conflict$/,
  413: /^payload_too_large$/,
  415: /^unsupported_media_type$/,
  422: /^(validation_error|unknown_trace|insufficient_scenarios)$/,
  429: /^rate_limited$/,
  503: /^[a-z_]+$/,
};

/** What a response must never show: stack frames, source paths, dependency internals. */
export const INTERNALS = /\n\s+at |node_modules|functions\/(core|http|shared|adapters)\/|\.ts:\d+/;

/** Problems of an error body against its documented shape (docs/api.md#errors); empty when it conforms. */
export function errorShapeProblems(status: number, text: string): string[] {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return [`non-JSON error body ${JSON.stringify(text.slice(0, 200))}`];
  }
  const problems: string[] = [];
  const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
  if (!isObj(body)) return [`error body is not an object: ${text.slice(0, 200)}`];
  const top = Object.keys(body);
  if (top.length !== 1 || top[0] !== 'error') problems.push(`top-level keys ${JSON.stringify(top)} instead of ["error"]`);
  const e = body.error;
  if (!isObj(e)) return [...problems, 'error is not an object'];
  for (const k of Object.keys(e)) if (!['code', 'message', 'details', 'request_id'].includes(k)) problems.push(`unexpected error.${k}`);
  if (typeof e.code !== 'string' || !/^[a-z_]+$/.test(e.code)) problems.push(`error.code ${JSON.stringify(e.code)} is not a snake_case string`);
  else if (STATUS_CODES[status] && !STATUS_CODES[status].test(e.code)) problems.push(`error.code ${e.code} does not belong to status ${status}`);
  if (typeof e.message !== 'string' || e.message === '') problems.push('error.message is not a non-empty string');
  if (typeof e.request_id !== 'string' || e.request_id === '') problems.push('error.request_id is not a non-empty string');
  if (e.details !== undefined) {
    if (!Array.isArray(e.details)) problems.push('error.details is not an array');
    else {
      e.details.forEach((d, i) => {
        if (!isObj(d) || typeof d.message !== 'string' || (d.path !== undefined && typeof d.path !== 'string')) {
          problems.push(`error.details[${i}] is not {path, message}: ${JSON.stringify(d).slice(0, 120)}`);
        }
      });
    }
  }
  return problems;
}

/**
 * Problems of an error of the MCP endpoint, a JSON-RPC error (id null) in its own protocol, or the service's error body
 * for what the chain and the gateway in front of it refuse (a run id that is not a UUID, headers too long).
 */
export function jsonRpcErrorProblems(status: number, text: string): string[] {
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    return [`non-JSON error body ${JSON.stringify(text.slice(0, 200))}`];
  }
  if (body && typeof body === 'object' && 'error' in body && !('jsonrpc' in body)) return errorShapeProblems(status, text);
  const ok =
    body?.jsonrpc === '2.0' &&
    body.id === null &&
    Number.isInteger(body.error?.code) &&
    typeof body.error?.message === 'string' &&
    body.error.message !== '';
  return ok ? [] : [`not a JSON-RPC error: ${text.slice(0, 200)}`];
}
