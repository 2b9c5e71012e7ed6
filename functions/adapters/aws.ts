// AWS clients, built once per process, with the settings every client shares (timeouts, the tracing hook). The
// DynamoDB document client lives in adapters/dynamodb/client.ts: only that room touches DynamoDB.
import { EventBridgeClient } from '@aws-sdk/client-eventbridge';
import { SQSClient } from '@aws-sdk/client-sqs';

let sqs: SQSClient | undefined;
let eventBridge: EventBridgeClient | undefined;

/** Applied to every client when it is built: none by default; shared/with-tracing.ts registers X-Ray capture. */
type ClientHook = <C extends object>(client: C) => C;
let instrument: ClientHook = (client) => client;

/** Sets the hook applied to clients built from now on (call it at import time, before any client is used). */
export function instrumentAwsClients(hook: ClientHook): void {
  instrument = hook;
}

/** A client with fast config properties (withFastConfig) and the registered hook applied: how every client is built. */
export function instrumented<C extends object>(client: C): C {
  return instrument(withFastConfig(client));
}

/** A property no object has, looked up through a client's config to have V8 make that config's properties fast. */
const NO_SUCH_PROPERTY = Symbol('rts.no-such-property');

/**
 * The client with fast properties in its `config`, which is otherwise unchanged (the same object, properties and
 * values). The SDK builds a client's config (~50 properties) by successive assignments, and V8 keeps it as a
 * dictionary; three middlewares spread it on every call (`{ ...config }`: endpoint, serialization, deserialization),
 * ~11 µs a spread in that form against ~1.8 µs with fast properties (Node 20, 22 and 24): ~0.4 s of the local
 * service's CPU in a batch of 1,000 cases (docs/benchmarks.md). V8 gives an object used as a prototype fast
 * properties once a lookup through it has run often enough for its inline cache to get feedback (64-256 lookups
 * here), so this looks a property up 1,000 times through an object whose prototype is the config.
 * test/unit/adapters/fast-config.test.ts checks the result with V8's own `%HasFastProperties`.
 */
export function withFastConfig<C extends object>(client: C): C {
  const config = (client as { config?: unknown }).config;
  if (typeof config !== 'object' || config === null) return client;
  const through = Object.create(config) as Record<symbol, unknown>;
  for (let i = 0; i < 1000; i++) void through[NO_SUCH_PROPERTY];
  return client;
}

const resetters: (() => void)[] = [];

/** Registers how a client factory forgets its cached client (called by resetAwsClients). */
export function onAwsClientsReset(reset: () => void): void {
  resetters.push(reset);
}

/** Tries per DynamoDB call (the first included); each failed try is retried with the SDK's back-off. */
export const AWS_MAX_ATTEMPTS = 5;
/** Time to open a connection, ms. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 2000;
/** Time for one try of a call (request sent, whole answer read), ms; DYNAMODB_REQUEST_TIMEOUT_MS overrides it for DynamoDB. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 5000;

/**
 * The HTTP handler options of every AWS client. Without them the SDK waits up to its 5-minute socket default for a
 * call that stalls (a store that accepted the request and never answers), so the caller hangs; with them a stalled
 * try fails with a TimeoutError, which the SDK retries like any transient fault (`maxAttempts`), and a call that
 * still fails surfaces as a retryable error instead of a hang. `throwOnRequestTimeout` turns the SDK's request
 * timeout from a logged warning into that error.
 */
export function awsRequestHandler(requestTimeout = DEFAULT_REQUEST_TIMEOUT_MS): {
  connectionTimeout: number;
  requestTimeout: number;
  throwOnRequestTimeout: true;
} {
  return { connectionTimeout: Math.min(DEFAULT_CONNECT_TIMEOUT_MS, requestTimeout), requestTimeout, throwOnRequestTimeout: true };
}

// `cacheMiddleware`: each command class's middleware stack is resolved once per client instead of on every send (the
// SDK's own option; up to 1 ms of CPU a call). Safe here because nothing changes a client's stack after it is built
// (instrumented() runs at construction) and no command carries middleware of its own.
export function sqsClient(): SQSClient {
  return (sqs ??= instrumented(new SQSClient({ requestHandler: awsRequestHandler(), cacheMiddleware: true })));
}

export function eventBridgeClient(): EventBridgeClient {
  return (eventBridge ??= instrumented(new EventBridgeClient({ requestHandler: awsRequestHandler(), cacheMiddleware: true })));
}

/** Forgets cached clients (tests that switch endpoints). */
export function resetAwsClients(): void {
  for (const reset of resetters) reset();
  sqs = undefined;
  eventBridge = undefined;
}
