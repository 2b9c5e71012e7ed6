// Named error classes carrying their HTTP status and error code (docs/api.md#errors).

export interface ErrorDetail {
  path?: string;
  message: string;
  [key: string]: unknown;
}

export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: ErrorDetail[],
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class UnauthorizedError extends AppError {
  constructor() {
    super(401, 'unauthorized', 'Missing or invalid credentials: send X-API-Key and X-Project-Id of one project.');
  }
}
export class InvalidJsonError extends AppError {
  constructor(message = 'The request body is not valid JSON.') {
    super(400, 'invalid_json', message);
  }
}
export class ValidationError extends AppError {
  constructor(message: string, details?: ErrorDetail[], code = 'validation_error') {
    super(422, code, message, details);
  }
}
export class NotFoundError extends AppError {
  constructor(what = 'Resource') {
    super(404, 'not_found', `${what} not found.`);
  }
}
export class RouteNotFoundError extends AppError {
  constructor(method: string, path: string) {
    super(404, 'route_not_found', `No route for ${method} ${path}.`);
  }
}
export class MethodNotAllowedError extends AppError {
  constructor(
    method: string,
    path: string,
    readonly allowed: string[] = [],
  ) {
    super(405, 'method_not_allowed', `Method ${method} is not allowed on ${path}.`);
  }
}
export class ConflictError extends AppError {
  constructor(message: string, code = 'conflict') {
    super(409, code, message);
  }
}
export class PayloadTooLargeError extends AppError {
  constructor(limit: number) {
    super(413, 'payload_too_large', `The request body exceeds the limit of ${limit} bytes.`);
  }
}
export class UnsupportedMediaTypeError extends AppError {
  constructor() {
    super(415, 'unsupported_media_type', 'Requests with a body must send Content-Type: application/json.');
  }
}
/** Too many requests: retry after `retryAfterS` seconds (the Retry-After header). */
export class RateLimitedError extends AppError {
  constructor(
    message = 'Too many requests; retry later.',
    readonly retryAfterS = 1,
  ) {
    super(429, 'rate_limited', message);
  }
}
/** A dependency (the store, the queue) failed for a moment: retry after `retryAfterS` seconds. */
export class ServiceUnavailableError extends AppError {
  constructor(
    message = 'The service is briefly unavailable; retry shortly.',
    readonly retryAfterS = 1,
  ) {
    super(503, 'service_unavailable', message);
  }
}
export class InternalError extends AppError {
  constructor() {
    super(500, 'internal_error', 'An unexpected error occurred.');
  }
}

export interface ErrorBody {
  error: { code: string; message: string; details?: ErrorDetail[]; request_id: string };
}

/** Builds the one error body (docs/api.md#errors). */
export function errorBody(err: AppError, requestId: string): ErrorBody {
  const body: ErrorBody = { error: { code: err.code, message: err.message, request_id: requestId } };
  if (err.details?.length) body.error.details = err.details;
  return body;
}
/** A conditional request whose precondition no longer holds: `If-Match` names a version that is not the current one. */
export class PreconditionFailedError extends AppError {
  constructor(message: string) {
    super(412, 'precondition_failed', message);
  }
}
