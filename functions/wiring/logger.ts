// The structured logger (Powertools); level from POWERTOOLS_LOG_LEVEL / LOG_LEVEL, quiet by default locally and in tests.
import { Logger } from '@aws-lambda-powertools/logger';
import type { Context } from 'aws-lambda';
import { optionalEnv } from '../adapters/env';

/** The `service` of log lines and metrics: POWERTOOLS_SERVICE_NAME (the stack's name in the cloud), else "rts". */
export function serviceName(): string {
  return optionalEnv('POWERTOOLS_SERVICE_NAME', 'rts') as string;
}

export const logger = new Logger({ serviceName: serviceName() });

/**
 * Puts the invocation's Lambda context (function_request_id, cold_start, function_name, ...) on every following log
 * line, for the handlers outside the HTTP chain (that chain uses Powertools' injectLambdaContext middleware).
 * Called without a context (local callers, tests that pass none), it changes nothing.
 */
export function addLambdaContext(context: Context | undefined): void {
  if (context?.awsRequestId) logger.addContext(context);
}
