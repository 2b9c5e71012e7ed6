// The structured logger (Powertools, loaded at the first line written); level from POWERTOOLS_LOG_LEVEL / LOG_LEVEL,
// quiet by default locally and in tests.
import { Console } from 'node:console';
import { isDevMode } from '@aws-lambda-powertools/commons/utils/env';
import type { Logger } from '@aws-lambda-powertools/logger';
import type { MiddlewareObj } from '@middy/core';
import type { Context } from 'aws-lambda';
import { optionalEnv } from '../adapters/env';

/** The `service` of log lines and metrics: POWERTOOLS_SERVICE_NAME (the stack's name in the cloud), else "rts". */
export function serviceName(): string {
  return optionalEnv('POWERTOOLS_SERVICE_NAME', 'rts') as string;
}

/**
 * `process.stdout` or `process.stderr`, read at the first write rather than now. Node creates each stream at its first
 * read (for a pipe, a socket), and a Console built on them reads only `write` until it writes; every other property
 * read (the error listeners it adds around a write, `isTTY`) is the stream's own.
 */
function standardStream(name: 'stdout' | 'stderr'): NodeJS.WritableStream {
  const write = (...args: unknown[]): boolean => (process[name].write as (...a: unknown[]) => boolean)(...args);
  return new Proxy({ write } as unknown as NodeJS.WritableStream, {
    get(_target, key) {
      if (key === 'write') return write;
      const stream = process[name];
      const value: unknown = Reflect.get(stream, key, stream);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(stream) : value;
    },
  });
}

/**
 * Powertools' `setConsole` (private, called by the constructor): its code, with the streams of standardStream.
 * Powertools builds its Console on both streams when the logger is constructed, so every cold start created them
 * (~1-2 ms of CPU on Lambda's Node 22 with stdout a pipe), though an HTTP function's request writes no line unless
 * something fails.
 */
function setConsoleLazily(this: { console: Console }): void {
  this.console = isDevMode() ? console : new Console({ stdout: standardStream('stdout'), stderr: standardStream('stderr') });
  // As Powertools does: `trace` prints its message without a stack trace, aligned with Lambda's own console.
  this.console.trace = (message?: unknown, ...params: unknown[]) => this.console.log(message, ...params);
}

/**
 * What the service logs with: the methods of Powertools' Logger that the handlers call. The Logger itself is loaded
 * and built at the first of these calls (see powertoolsLogger), not with this module: an HTTP function's request
 * writes no line unless something fails, and building the logger was ~0.1x of the minimal bundle's cold init.
 */
export type ServiceLogger = Pick<Logger, 'debug' | 'info' | 'warn' | 'error' | 'critical' | 'appendKeys'>;

let built: Logger | undefined;
/** The context of the latest invocation seen before the logger was built, and how many invocations had one. */
let pendingContext: Context | undefined;
let invocations = 0;

/**
 * The settings under which Powertools does work on every invocation, not only when a line is written: logging each
 * event (POWERTOOLS_LOGGER_LOG_EVENT), sampling the DEBUG level (POWERTOOLS_LOGGER_SAMPLE_RATE), and invocation-scoped
 * state when one environment serves invocations at once (AWS_LAMBDA_MAX_CONCURRENCY). Under any of them the logger is
 * built with this module, as Powertools' own would be, and every invocation goes through it.
 */
const EAGER_ENV = ['POWERTOOLS_LOGGER_LOG_EVENT', 'POWERTOOLS_LOGGER_SAMPLE_RATE', 'AWS_LAMBDA_MAX_CONCURRENCY'];

/**
 * Powertools' Logger, built on first use. Built after some invocations, it is given the latest one's context, and its
 * cold start is spent first when that invocation is not the environment's first: its lines say `cold_start` as the
 * Logger built at init would have.
 */
export function powertoolsLogger(): Logger {
  if (built) return built;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { Logger: PowertoolsLogger } = require('@aws-lambda-powertools/logger') as typeof import('@aws-lambda-powertools/logger');
  class LazyStreamsLogger extends PowertoolsLogger {
    /** Flips the cold start as the context of an earlier invocation would have. */
    spendColdStart(): void {
      this.getColdStart();
    }
  }
  Object.defineProperty(LazyStreamsLogger.prototype, 'setConsole', { value: setConsoleLazily });
  const made = new LazyStreamsLogger({ serviceName: serviceName() });
  built = made;
  if (pendingContext) {
    if (invocations > 1) made.spendColdStart();
    made.addContext(pendingContext);
    pendingContext = undefined;
  }
  return built;
}

export const logger: ServiceLogger = {
  debug: (input, ...extra) => powertoolsLogger().debug(input, ...extra),
  info: (input, ...extra) => powertoolsLogger().info(input, ...extra),
  warn: (input, ...extra) => powertoolsLogger().warn(input, ...extra),
  error: (input, ...extra) => powertoolsLogger().error(input, ...extra),
  critical: (input, ...extra) => powertoolsLogger().critical(input, ...extra),
  appendKeys: (attributes) => powertoolsLogger().appendKeys(attributes),
};

if (EAGER_ENV.some((name) => optionalEnv(name))) powertoolsLogger();

/**
 * Puts the invocation's Lambda context (function_request_id, cold_start, function_name, ...) on every following log
 * line, for the handlers outside the HTTP chain (that chain uses lambdaContext, below). Called without a context
 * (local callers, tests that pass none), it changes nothing.
 */
export function addLambdaContext(context: Context | undefined): void {
  if (!context?.awsRequestId) return;
  invocations++;
  if (built) built.addContext(context);
  else pendingContext = context;
}

/**
 * The HTTP chain's middleware that puts the invocation's Lambda context on its log lines: Powertools'
 * `injectLambdaContext` once the logger is built (which also logs the event or samples the level when configured to);
 * before that, the context is kept for the logger to take when a line is written.
 */
export function lambdaContext(): MiddlewareObj {
  let powertools: MiddlewareObj | undefined;
  const live = (): MiddlewareObj | undefined => {
    if (powertools || !built) return powertools;
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { injectLambdaContext } = require('@aws-lambda-powertools/logger/middleware') as typeof import('@aws-lambda-powertools/logger/middleware');
    return (powertools = injectLambdaContext(built));
  };
  return {
    before: async (request) => {
      const middleware = live();
      if (!middleware) return addLambdaContext(request.context as Context);
      invocations++;
      return middleware.before?.(request);
    },
    after: async (request) => live()?.after?.(request),
    onError: async (request) => live()?.onError?.(request),
  };
}
