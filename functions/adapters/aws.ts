// AWS clients, built once per process; DYNAMODB_ENDPOINT points the document client at another endpoint (the local store).
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { EventBridgeClient } from '@aws-sdk/client-eventbridge';
import { SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { optionalEnv } from './env';

let doc: DynamoDBDocumentClient | undefined;
let sqs: SQSClient | undefined;
let eventBridge: EventBridgeClient | undefined;

/** Applied to every client when it is built: none by default; shared/with-tracing.ts registers X-Ray capture. */
type ClientHook = <C extends object>(client: C) => C;
let instrument: ClientHook = (client) => client;

/** Sets the hook applied to clients built from now on (call it at import time, before any client is used). */
export function instrumentAwsClients(hook: ClientHook): void {
  instrument = hook;
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
export function awsRequestHandler(requestTimeout = DEFAULT_REQUEST_TIMEOUT_MS): { connectionTimeout: number; requestTimeout: number; throwOnRequestTimeout: true } {
  return { connectionTimeout: Math.min(DEFAULT_CONNECT_TIMEOUT_MS, requestTimeout), requestTimeout, throwOnRequestTimeout: true };
}

/** The per-try timeout of DynamoDB calls: DYNAMODB_REQUEST_TIMEOUT_MS (a positive number of ms), else the default. */
export function dynamoRequestTimeoutMs(): number {
  const configured = Number(optionalEnv('DYNAMODB_REQUEST_TIMEOUT_MS'));
  return Number.isFinite(configured) && configured > 0 ? configured : DEFAULT_REQUEST_TIMEOUT_MS;
}

export function dynamoDocClient(): DynamoDBDocumentClient {
  if (!doc) {
    const endpoint = optionalEnv('DYNAMODB_ENDPOINT');
    const common = { maxAttempts: AWS_MAX_ATTEMPTS, requestHandler: awsRequestHandler(dynamoRequestTimeoutMs()) };
    const raw = instrument(new DynamoDBClient(
      endpoint
        ? { ...common, endpoint, region: optionalEnv('AWS_REGION', 'local'), credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }
        : common,
    ));
    // The document client sends through the raw client's middleware stack, so capturing the raw client covers both.
    doc = DynamoDBDocumentClient.from(raw, { marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false } });
  }
  return doc;
}

export function sqsClient(): SQSClient {
  return (sqs ??= instrument(new SQSClient({ requestHandler: awsRequestHandler() })));
}

export function eventBridgeClient(): EventBridgeClient {
  return (eventBridge ??= instrument(new EventBridgeClient({ requestHandler: awsRequestHandler() })));
}

/** Forgets cached clients (tests that switch endpoints). */
export function resetAwsClients(): void {
  doc = undefined;
  sqs = undefined;
  eventBridge = undefined;
}
