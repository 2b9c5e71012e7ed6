// X-Ray instrumentation of AWS SDK clients and outbound HTTP, for the functions that import wiring/with-tracing: in
// Lambda with tracing on, subsegments of the invocation's segment sent to the X-Ray daemon (adapters/xray/). Elsewhere
// (the local service, tests, the CLI) clients and sends are left alone.
import type { OutboundRequest, OutboundResponse } from '../core/ports';
import { captureAwsClient } from '../adapters/xray/capture';
import { newSubsegment } from '../adapters/xray/segments';

/**
 * Whether to trace: in a Lambda function (AWS_LAMBDA_FUNCTION_NAME and a Lambda AWS_EXECUTION_ENV: other AWS hosts,
 * CloudShell or ECS, set AWS_EXECUTION_ENV too), not under SAM local, and unless POWERTOOLS_TRACE_ENABLED=false.
 */
export function tracingWanted(env: NodeJS.ProcessEnv = process.env): boolean {
  return (
    !!env.AWS_LAMBDA_FUNCTION_NAME &&
    (env.AWS_EXECUTION_ENV ?? '').startsWith('AWS_Lambda_') &&
    !env.AWS_SAM_LOCAL &&
    (env.POWERTOOLS_TRACE_ENABLED ?? '').toLowerCase() !== 'false'
  );
}

let tracing: boolean | undefined;

/** Whether this process traces, read from the environment on first use. */
export function tracingOn(): boolean {
  return (tracing ??= tracingWanted());
}

/** Forgets the decision, so the next use reads the environment again (tests). */
export function resetTracer(): void {
  tracing = undefined;
}

/** The client with X-Ray capture of each call (one subsegment per AWS call), or unchanged when not tracing. */
export function traceAwsClient<C extends object>(client: C): C {
  return tracingOn() ? captureAwsClient(client) : client;
}

/**
 * Runs one outbound request in a `remote` subsegment named after the host, with its method, URL (without the query,
 * which may carry credentials) and status; 429 is flagged throttle, other 4xx error, 5xx fault, and a request that
 * fails (timeout, connection error, refused by the address guard) records its error. Not tracing: just sends.
 */
export async function traceOutbound(req: OutboundRequest, send: () => Promise<OutboundResponse>): Promise<OutboundResponse> {
  if (!tracingOn()) return send();
  let url: URL | undefined;
  try {
    url = new URL(req.url);
  } catch {
    // Not a URL: the sender refuses it; the subsegment still shows the attempt.
  }
  const sub = newSubsegment(url?.hostname || 'invalid-url', 'remote');
  if (!sub) return send();
  const request = { method: req.method, url: url ? `${url.origin}${url.pathname}` : '' };
  try {
    const res = await send();
    sub.addAttribute('http', { request, response: { status: res.status, content_length: Buffer.byteLength(res.body, 'utf8') } });
    sub.flagStatus(res.status);
    return res;
  } catch (err) {
    sub.addAttribute('http', { request });
    sub.addError(err as Error, (err as { kind?: string }).kind !== 'blocked');
    throw err;
  } finally {
    sub.close();
  }
}
