// Classifies failures of AWS calls (DynamoDB, SQS, EventBridge) that outlived the SDK's own retries:
// throttling (back off like on our 429) and transient faults (retry the request: 503), as opposed to bugs.

const THROTTLING = new Set([
  'ThrottlingException',
  'ProvisionedThroughputExceededException',
  'RequestLimitExceeded',
  'TooManyRequestsException',
  'Throttling',
  'ThrottledException',
]);

const TRANSIENT_NAMES = new Set([
  'InternalServerError',
  'InternalFailure',
  'ServiceUnavailable',
  'ServiceUnavailableException',
  'RequestTimeout',
  'RequestTimeoutException',
  'TimeoutError',
  'TransactionInProgressException',
]);

const TRANSIENT_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EAI_AGAIN',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_SOCKET',
]);

interface AwsLikeError {
  name?: string;
  code?: string;
  $retryable?: unknown;
  $metadata?: { httpStatusCode?: number };
  cause?: unknown;
}

/** Throttling that survived the SDK's retries: the client should back off (429 rate_limited). */
export function isThrottlingError(err: unknown): boolean {
  const e = err as AwsLikeError | undefined;
  return !!e && (THROTTLING.has(e.name ?? '') || e.$metadata?.httpStatusCode === 429);
}

/**
 * A fault of the dependency rather than of the request or the code: a 5xx from the service, a timeout, a dropped
 * or refused connection. Retrying the whole request later is the right answer (503 service_unavailable).
 */
export function isTransientError(err: unknown): boolean {
  const e = err as AwsLikeError | undefined;
  if (!e || typeof e !== 'object') return false;
  if (TRANSIENT_NAMES.has(e.name ?? '') || TRANSIENT_CODES.has(e.code ?? '')) return true;
  if (e.$retryable) return true;
  const status = e.$metadata?.httpStatusCode;
  if (typeof status === 'number' && status >= 500) return true;
  // Network errors surface as a generic Error whose cause carries the code.
  return e.cause !== undefined && e.cause !== err && isTransientError(e.cause);
}
