// X-Ray instrumentation (Powertools Tracer) of AWS SDK clients and outbound HTTP, for the functions that import
// wiring/with-tracing. The tracer is required only in Lambda with tracing on: elsewhere (the local service, tests, the
// CLI) the X-Ray SDK is never loaded, because loading it installs a process-wide async hook that slows every promise.
import type { Tracer } from '@aws-lambda-powertools/tracer';
import type { OutboundRequest, OutboundResponse } from '../core/ports';
import { serviceName } from './logger';

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

let tracer: Tracer | null | undefined;

/** The process's tracer, built on first use; null when not tracing. */
export function getTracer(): Tracer | null {
  if (tracer === undefined) {
    tracer = null;
    if (tracingWanted()) {
      // Required here, not imported: the bundle carries it, but it is evaluated only when tracing.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { Tracer: PowertoolsTracer } = require('@aws-lambda-powertools/tracer') as typeof import('@aws-lambda-powertools/tracer');
      // captureHTTPsRequests off: patching node:http(s) globally would add X-Amzn-Trace-Id to webhook deliveries
      // and agent calls (third parties); the guarded sender opens its own subsegment per request instead.
      const t = new PowertoolsTracer({ serviceName: serviceName(), captureHTTPsRequests: false });
      if (t.isTracingEnabled()) tracer = t;
    }
  }
  return tracer;
}

/** Forgets the tracer, so the next use reads the environment again (tests). */
export function resetTracer(): void {
  tracer = undefined;
}

/** The client with X-Ray capture of each call (one subsegment per AWS call), or unchanged when not tracing. */
export function traceAwsClient<C extends object>(client: C): C {
  const t = getTracer();
  return t ? t.captureAWSv3Client(client) : client;
}

/**
 * Runs one outbound request in a `remote` subsegment named after the host, with its method, URL (without the query,
 * which may carry credentials) and status; 429 is flagged throttle, other 4xx error, 5xx fault, and a request that
 * fails (timeout, connection error, refused by the address guard) records its error. Not tracing: just sends.
 */
export async function traceOutbound(req: OutboundRequest, send: () => Promise<OutboundResponse>): Promise<OutboundResponse> {
  const parent = getTracer()?.getSegment();
  if (!parent) return send();
  let url: URL | undefined;
  try {
    url = new URL(req.url);
  } catch {
    // Not a URL: the sender refuses it; the subsegment still shows the attempt.
  }
  const sub = parent.addNewSubsegment(url?.hostname || 'invalid-url');
  sub.addAttribute('namespace', 'remote');
  const request = { method: req.method, url: url ? `${url.origin}${url.pathname}` : '' };
  try {
    const res = await send();
    sub.addAttribute('http', { request, response: { status: res.status, content_length: Buffer.byteLength(res.body, 'utf8') } });
    if (res.status === 429) sub.addThrottleFlag();
    else if (res.status >= 500) sub.addFaultFlag();
    else if (res.status >= 400) sub.addErrorFlag();
    return res;
  } catch (err) {
    sub.addAttribute('http', { request });
    sub.addError(err as Error, (err as { kind?: string }).kind !== 'blocked');
    throw err;
  } finally {
    sub.close();
  }
}
