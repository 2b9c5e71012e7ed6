// @rts/sdk: the rts API client (one typed method per route, retries that honour Retry-After) and the webhook verifiers.
export { RtsClient } from './client';
export {
  BaseClient,
  type ApiResponse,
  type ClientOptions,
  type FetchInit,
  type FetchLike,
  type FetchResponseLike,
  type QueryValue,
  type RequestOptions,
} from './base-client';
export { RtsApiError, type ApiErrorBody, type RtsApiErrorOptions } from './errors';
export { parseRetryAfter } from './retry';
export { SDK_VERSION } from './version';
export * from './verify';
export * from './types';
