// OpenAPI metadata of the zod/mini request schemas: what zod-to-openapi's `.openapi()` gives classic schemas.
import { registry, type ZodMiniType } from './zod-mini';

/** What the OpenAPI document shows of a request schema: a component name, a description, an example. */
export interface OpenApiMeta {
  /** Name under components.schemas: the schema is referenced by it instead of inlined. */
  name?: string;
  description?: string;
  example?: unknown;
  /**
   * JSON Schema keywords that replace those derived from the schema, for what a transform or a refinement accepts and
   * the derivation cannot see (a JSON string parsed into an object, the known values of a refined string).
   */
  override?: Record<string, unknown>;
}

/** The request schemas' metadata; read by functions/core/openapi/classic.ts when it builds the document. */
export const openApiMeta = registry<OpenApiMeta>();

/** Attaches OpenAPI metadata to a schema; returns the schema. */
export function openapi<T extends ZodMiniType>(schema: T, meta: OpenApiMeta): T {
  openApiMeta.add(schema, meta);
  return schema;
}
