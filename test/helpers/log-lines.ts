// The JSON log lines a handler writes, and the Lambda context it is invoked with: for the tests of the service's logger
// (test/unit/wiring/logger-*.test.ts).
import type { Context } from 'aws-lambda';

/** A Lambda context as the runtime gives one invocation of `functionName`. */
export function contextFor(functionName: string, awsRequestId: string): Context {
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:eu-west-1:123456789012:function:${functionName}`,
    memoryLimitInMB: '512',
    awsRequestId,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'stream',
    getRemainingTimeInMillis: () => 10_000,
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

/** Runs `fn` and returns the JSON lines it wrote to stdout and stderr, in order (jest spies, restored whatever happens). */
export async function logLinesOf(fn: () => Promise<unknown>): Promise<Record<string, unknown>[]> {
  const chunks: string[] = [];
  const capture = (chunk: string | Uint8Array) => {
    chunks.push(String(chunk));
    return true;
  };
  const out = jest.spyOn(process.stdout, 'write').mockImplementation(capture);
  const err = jest.spyOn(process.stderr, 'write').mockImplementation(capture);
  try {
    await fn();
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
  return chunks
    .join('')
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}
