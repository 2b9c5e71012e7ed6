// The DynamoDB client's request handler for the embedded store of the local service's own process: each call goes to
// the store as its target and JSON body (over the store child's IPC channel, or as a function call to a store in this
// process; functions/local/store-calls.js answers it as dynalite's HTTP handler would) instead of an HTTP request.
// The SDK does everything else as for any endpoint: serialising, retries, errors, parsing the answer. Node's HTTP
// client here and its server in the store were a quarter of each process's CPU per call (docs/benchmarks.md).
import { useEmbeddedStoreHandler, type RequestHandlerFactory } from './client';

/** Sends one call to the store: its `X-Amz-Target` and JSON body; resolves to the store's status and JSON answer. */
export type StoreCall = (target: string, body: string) => Promise<{ status: number; body: string }>;

interface SdkRequest {
  headers: Record<string, string>;
  body?: unknown;
}

interface HandleOptions {
  abortSignal?: {
    aborted: boolean;
    addEventListener?(type: 'abort', listener: () => void, opts?: { once: boolean }): void;
    removeEventListener?(type: 'abort', listener: () => void): void;
  };
}

const utf8 = new TextDecoder();

/** The request body as text: the SDK hands a JSON body over as a string or as its UTF-8 bytes. */
function bodyText(body: unknown): string {
  if (typeof body === 'string') return body;
  if (body instanceof Uint8Array) return utf8.decode(body);
  return '';
}

/** The errors node-http-handler gives for a try that timed out or was aborted, which the SDK treats the same way. */
const timedOut = (ms: number) => Object.assign(new Error(`Request did not complete within ${ms} ms`), { name: 'TimeoutError', code: 'ETIMEDOUT' });
const aborted = () => Object.assign(new Error('Request aborted'), { name: 'AbortError' });

/**
 * An SDK request handler that sends each call through `call`. A try that gets no answer within `requestTimeout` ms
 * fails with a TimeoutError and an aborted one with an AbortError, as with the HTTP handler: the SDK retries the first
 * like any transient fault. An error from `call` itself (the store's process gone) is the caller's to shape (give it
 * a `code` such as ECONNRESET to have it retried).
 */
export function storeCallHandler(call: StoreCall, requestTimeout: number) {
  return {
    metadata: { handlerProtocol: 'rts-store-call' },
    handle(request: SdkRequest, options: HandleOptions = {}) {
      const signal = options.abortSignal;
      if (signal?.aborted) return Promise.reject(aborted());
      return new Promise<{ response: { statusCode: number; headers: Record<string, string>; body: Uint8Array } }>((resolve, reject) => {
        let settled = false;
        const onAbort = () => finish(aborted());
        const timer = setTimeout(() => finish(timedOut(requestTimeout)), requestTimeout);
        function finish(err: Error | undefined, answer?: { status: number; body: string }) {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          signal?.removeEventListener?.('abort', onAbort);
          if (err) return reject(err);
          resolve({
            response: { statusCode: answer!.status, headers: { 'content-type': 'application/x-amz-json-1.0' }, body: Buffer.from(answer!.body) },
          });
        }
        signal?.addEventListener?.('abort', onAbort, { once: true });
        call(request.headers['x-amz-target'] ?? '', bodyText(request.body)).then(
          (answer) => finish(undefined, answer),
          (err: Error) => finish(err),
        );
      });
    },
    updateHttpClientConfig(): void {},
    httpHandlerConfigs(): Record<string, never> {
      return {};
    },
    destroy(): void {},
  };
}

/**
 * Local mode: this process's client sends its calls to the embedded store at `endpoint` through `call` while
 * DYNAMODB_ENDPOINT names that store; any other endpoint is reached over HTTP. No arguments: HTTP again.
 */
export function useEmbeddedStoreCalls(endpoint?: string, call?: StoreCall): void {
  const handler: RequestHandlerFactory | undefined = call && ((timeout) => storeCallHandler(call, timeout) as ReturnType<RequestHandlerFactory>);
  useEmbeddedStoreHandler(endpoint, handler);
}
