// Limits (docs/api.md#limits) that code outside the schemas needs (kept free of zod so read paths stay small): the
// route table (lib/routes.ts) reads the request limits from here, the HTTP chain applies them.

// Written as numbers, not as products of named units: esbuild drops an unused constant only when its value is a literal.

/** Request body limit of a route whose row sets none: 256 KiB. */
export const DEFAULT_BODY_LIMIT = 262_144;
/** Request body limit of POST /v1/traces, also the bound of a gzip-compressed body once decompressed: 5 MiB. */
export const TRACE_BODY_LIMIT = 5_242_880;
/** Request body limit of the MCP endpoint (one JSON-RPC message or batch; a call's recorded arguments have their own): 1 MiB. */
export const MCP_BODY_LIMIT = 1_048_576;

/** JSON nesting depth of a request body, where its row sets none: what DynamoDB can store. */
export const DEFAULT_MAX_DEPTH = 32;
/**
 * JSON nesting depth of a trace body (native or OTLP): a trace is stored compressed, not as DynamoDB maps; the parts
 * kept in its metadata item have a bound of their own (functions/core/traces/schema.ts).
 */
export const TRACE_MAX_DEPTH = 128;

/** Traces an eval-set pool may hold. */
export const EVAL_SET_MAX = 1000;

/** Attempts one run may plan: (baseline + mutations) x repeats. */
export const MAX_ATTEMPTS_PER_RUN = 200;

/** Most user turns an attempt with a simulated user may have (docs/campaigns-and-replay.md#simulated-user). */
export const MAX_SIMULATED_TURNS = 20;
