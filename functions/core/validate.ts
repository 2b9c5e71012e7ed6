// Validation against a request schema (zod/mini), failing with the 422 validation_error whose details name each problem
// (docs/api.md#errors): the HTTP chain validates bodies with it, and so do the handlers' filters and the core services
// whose input is only known once they have looked at it (the native half of POST /v1/traces).
// Types only: the schemas passed in carry their own code, so this module bundles no zod.
import type { ZodMiniType as ZodType } from 'zod/mini';
import type { $ZodError as ZodError, output } from 'zod/v4/core';
import { ValidationError, type ErrorDetail } from './errors';

/** Converts zod issues into the error body's details: `[{path: "thresholds.min_pass_rate", message}]`. */
export function zodDetails(error: ZodError): ErrorDetail[] {
  return error.issues.slice(0, 50).map((issue) => ({
    path: issue.path.map(String).join('.'),
    message: issue.message,
  }));
}

/** Parses and validates with a schema, throwing a 422 validation_error with details (docs/api.md#errors). */
export function validate<S extends ZodType>(schema: S, input: unknown, message = 'The request body is invalid.'): output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw new ValidationError(message, zodDetails(result.error));
  return result.data;
}
