// X-Ray capture of AWS SDK v3 clients: one `aws` subsegment per call (service, operation, region, request id, retries,
// status), whose id goes downstream in the call's X-Amzn-Trace-Id header, as the X-Ray SDK's capture does.
import { newSubsegment } from './segments';

interface CapturableClient {
  config: { serviceId?: string; region?: unknown };
  middlewareStack: { add: (mw: unknown, options: Record<string, unknown>) => void };
}

interface CallMetadata {
  $metadata?: { httpStatusCode?: number; requestId?: string; attempts?: number };
}

const regionOf = async (config: CapturableClient['config']): Promise<string | undefined> => {
  const r = config.region;
  return typeof r === 'function' ? String(await (r as () => Promise<string>)()) : typeof r === 'string' ? r : undefined;
};

/** The client with its calls captured (the same client, its middleware stack extended). */
export function captureAwsClient<C extends object>(client: C): C {
  const c = client as unknown as CapturableClient;
  c.middlewareStack.add(
    (next: (args: unknown) => Promise<unknown>, context: { commandName?: string }) =>
      async (args: { request?: { headers?: Record<string, string> } }) => {
        const sub = newSubsegment(c.config.serviceId ?? 'AWS', 'aws');
        if (!sub) return next(args);
        if (args.request?.headers) args.request.headers['X-Amzn-Trace-Id'] = sub.traceHeader();
        const aws: Record<string, unknown> = { operation: (context.commandName ?? '').replace(/Command$/, ''), region: await regionOf(c.config) };
        const finish = (meta: CallMetadata['$metadata'] | undefined, status: number | undefined) => {
          sub.addAttribute('aws', { ...aws, request_id: meta?.requestId, retries: Math.max(0, (meta?.attempts ?? 1) - 1) });
          if (status !== undefined) {
            sub.addAttribute('http', { response: { status } });
            sub.flagStatus(status);
          }
        };
        try {
          const out = (await next(args)) as { output?: CallMetadata; response?: { statusCode?: number } };
          finish(out.output?.$metadata, out.response?.statusCode ?? out.output?.$metadata?.httpStatusCode);
          return out;
        } catch (err) {
          const meta = (err as CallMetadata).$metadata;
          finish(meta, meta?.httpStatusCode);
          sub.addError(err as Error, meta?.httpStatusCode !== undefined);
          throw err;
        } finally {
          sub.close();
        }
      },
    { step: 'finalizeRequest', priority: 'high', name: 'rtsXRayCapture', override: true },
  );
  return client;
}
