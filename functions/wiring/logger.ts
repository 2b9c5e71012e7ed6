// The structured logger (Powertools); level from POWERTOOLS_LOG_LEVEL / LOG_LEVEL, quiet by default locally and in tests.
import { Console } from 'node:console';
import { isDevMode } from '@aws-lambda-powertools/commons/utils/env';
import { Logger } from '@aws-lambda-powertools/logger';
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
 * Powertools' Logger, whose Console reaches process.stdout and process.stderr at the first line written. Powertools
 * builds its Console on both streams when the logger is constructed, so every cold start created them (~1-2 ms of CPU on
 * Lambda's Node 22 with stdout a pipe), though an HTTP function's request writes no line unless something fails.
 */
class LazyStreamsLogger extends Logger {}

// Powertools' `setConsole` (private, called by the constructor): its code, with the streams of standardStream.
Object.defineProperty(LazyStreamsLogger.prototype, 'setConsole', {
  value(this: { console: Console }): void {
    this.console = isDevMode() ? console : new Console({ stdout: standardStream('stdout'), stderr: standardStream('stderr') });
    // As Powertools does: `trace` prints its message without a stack trace, aligned with Lambda's own console.
    this.console.trace = (message?: unknown, ...params: unknown[]) => this.console.log(message, ...params);
  },
});

export const logger: Logger = new LazyStreamsLogger({ serviceName: serviceName() });

/**
 * Puts the invocation's Lambda context (function_request_id, cold_start, function_name, ...) on every following log
 * line, for the handlers outside the HTTP chain (that chain uses Powertools' injectLambdaContext middleware).
 * Called without a context (local callers, tests that pass none), it changes nothing.
 */
export function addLambdaContext(context: Context | undefined): void {
  if (context?.awsRequestId) logger.addContext(context);
}
