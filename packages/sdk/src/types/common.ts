// Shapes every route shares: pages, list queries, the health answer.

/** `?limit=` (1-100, default 50) and the opaque `?cursor=` (a page's `next_cursor`) of every list route. */
export interface PageQuery {
  limit?: number;
  cursor?: string;
  [key: string]: string | number | boolean | undefined;
}

/** One page of a list route: `next_cursor` is null on the last page. */
export interface Page<T> {
  items: T[];
  next_cursor: string | null;
}

/** GET /health. */
export interface Health {
  status: 'ok';
}

/** GET /v1/openapi.json: an OpenAPI 3.1 document. */
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; [key: string]: unknown };
  paths: Record<string, unknown>;
  [key: string]: unknown;
}

export type JsonObject = Record<string, unknown>;
