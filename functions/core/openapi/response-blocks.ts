// Building blocks of the response schemas (the error body, pages, ids, timestamps). Output schemas are read only by
// the OpenAPI document and tests, never by a route handler, so they add nothing to the Lambda bundles.
import type { ZodType } from 'zod';
import { z } from './zod';

/** Trace, campaign, run, batch, pack and delivery ids: lowercase UUID v4 (docs/api.md#ids). */
export const uuidOut = z.uuid();
/** ISO 8601 UTC with microseconds and offset, e.g. 2026-11-21T23:59:01.123456+00:00. */
export const timestamp = z.iso.datetime({ offset: true });
export const count = z.number().int().min(0);
/** A share from 0 to 1. */
export const rate = z.number().min(0).max(1);
export const jsonObjectOut = z.record(z.string(), z.unknown());
/** `wh_` + 24 lowercase alphanumerics. */
export const WEBHOOK_ID_PATTERN = /^wh_[0-9a-z]{24}$/;

/**
 * Every non-2xx answer (docs/api.md#errors). `details` entries may carry more fields (e.g. required and registered).
 */
export const errorSchema = z
  .object({
    error: z.object({
      code: z.string().openapi({ description: 'Machine-readable code, e.g. validation_error, not_found, rate_limited.' }),
      message: z.string(),
      details: z.array(z.object({ path: z.string().optional(), message: z.string() }).catchall(z.unknown())).optional(),
      request_id: z.string(),
    }),
  })
  .openapi('Error');

/** One page of a list route (docs/api.md#pagination): `next_cursor` is null on the last page. */
export function page<T extends ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    next_cursor: z.string().nullable().openapi({ description: 'Pass as ?cursor= for the next page; null on the last page.' }),
  });
}

export const healthSchema = z.object({ status: z.literal('ok') }).openapi('Health');

/** GET /v1/openapi.json: an OpenAPI 3.1 document (described loosely: it describes itself). */
export const openApiDocumentSchema = z
  .looseObject({ openapi: z.string(), info: z.looseObject({ title: z.string(), version: z.string() }), paths: jsonObjectOut })
  .openapi('OpenApiDocument');
