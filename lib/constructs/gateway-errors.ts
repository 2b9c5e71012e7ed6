// The API's error model (docs/api.md#errors) for the errors API Gateway itself produces (gateway responses and mock
// routes).
import * as apigw from 'aws-cdk-lib/aws-apigateway';

export interface GatewayError {
  readonly type: apigw.ResponseType;
  /** Status sent to the client; undefined keeps the gateway's own status (DEFAULT_4XX). */
  readonly status?: string;
  readonly code: string;
  readonly message: string;
  /** Extra response header values (gateway-response syntax: a quoted literal). */
  readonly headers?: Readonly<Record<string, string>>;
}

const UNAUTHORIZED = 'Missing or invalid API key or project id.';

/**
 * Every gateway-made error a client can meet. Unauthorized causes share one body (docs/api.md#authentication: the
 * same body for every cause), so a caller cannot probe which of key or project was wrong.
 */
export const GATEWAY_ERRORS: readonly GatewayError[] = [
  { type: apigw.ResponseType.UNAUTHORIZED, status: '401', code: 'unauthorized', message: UNAUTHORIZED },
  { type: apigw.ResponseType.ACCESS_DENIED, status: '401', code: 'unauthorized', message: UNAUTHORIZED },
  // Only with per-project throttling on: the project is not registered in the usage plan.
  { type: apigw.ResponseType.INVALID_API_KEY, status: '401', code: 'unauthorized', message: UNAUTHORIZED },
  // A REST API without IAM auth answers an unknown path or method with MISSING_AUTHENTICATION_TOKEN.
  { type: apigw.ResponseType.MISSING_AUTHENTICATION_TOKEN, status: '404', code: 'route_not_found', message: 'No such route.' },
  { type: apigw.ResponseType.RESOURCE_NOT_FOUND, status: '404', code: 'route_not_found', message: 'No such route.' },
  { type: apigw.ResponseType.REQUEST_TOO_LARGE, status: '413', code: 'payload_too_large', message: 'Request body too large.' },
  { type: apigw.ResponseType.THROTTLED, status: '429', code: 'rate_limited', message: 'Too many requests; retry later.' },
  { type: apigw.ResponseType.QUOTA_EXCEEDED, status: '429', code: 'rate_limited', message: 'Request quota exceeded; retry later.' },
  { type: apigw.ResponseType.BAD_REQUEST_BODY, status: '400', code: 'invalid_json', message: 'Request body is not valid JSON.' },
  {
    type: apigw.ResponseType.UNSUPPORTED_MEDIA_TYPE,
    status: '415',
    code: 'unsupported_media_type',
    message: 'Content-Type must be application/json.',
  },
  // The authorizer could not check the key (the store failed for a moment): retryable, and never cached as a 401.
  {
    type: apigw.ResponseType.AUTHORIZER_FAILURE,
    status: '503',
    code: 'service_unavailable',
    message: 'The credentials could not be checked; retry shortly.',
    headers: { 'Retry-After': "'1'" },
  },
  {
    type: apigw.ResponseType.AUTHORIZER_CONFIGURATION_ERROR,
    status: '503',
    code: 'service_unavailable',
    message: 'The credentials could not be checked; retry shortly.',
    headers: { 'Retry-After': "'1'" },
  },
  { type: apigw.ResponseType.INTEGRATION_FAILURE, status: '500', code: 'internal_error', message: 'Internal error.' },
  { type: apigw.ResponseType.INTEGRATION_TIMEOUT, status: '504', code: 'internal_error', message: 'The request timed out.' },
  { type: apigw.ResponseType.DEFAULT_5XX, status: '500', code: 'internal_error', message: 'Internal error.' },
  { type: apigw.ResponseType.DEFAULT_4XX, code: 'bad_request', message: 'The request was rejected.' },
];

/** The API's error body as a mapping template; `$context.requestId` is filled in by API Gateway. */
export function errorBody(code: string, message: string): string {
  return JSON.stringify({ error: { code, message, request_id: '$context.requestId' } });
}
