// The DynamoDB document client, built once per process; DYNAMODB_ENDPOINT points it at another endpoint (the local store).
import { DynamoDBClient, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { AWS_MAX_ATTEMPTS, DEFAULT_REQUEST_TIMEOUT_MS, awsRequestHandler, instrumented, onAwsClientsReset } from '../aws';
import { optionalEnv } from '../env';
import { directTarget } from './direct-commands';

let doc: DynamoDBDocumentClient | undefined;
let raw: DynamoDBClient | undefined;
onAwsClientsReset(() => {
  doc = undefined;
  raw = undefined;
});

/** A request handler for the client, given the per-try timeout. */
export type RequestHandlerFactory = (requestTimeout: number) => NonNullable<DynamoDBClientConfig['requestHandler']>;

/** The embedded store this process started, if any: its endpoint and the request handler that reaches it without HTTP. */
let embedded: { endpoint: string; handler: RequestHandlerFactory } | undefined;

/**
 * Local mode: this process's client sends its calls to the store at `endpoint` through `handler` while
 * DYNAMODB_ENDPOINT names that store; any other endpoint is reached over HTTP. No arguments: HTTP again. Set by
 * useEmbeddedStoreCalls (store-calls.ts), which Lambda bundles never load.
 */
export function useEmbeddedStoreHandler(endpoint?: string, handler?: RequestHandlerFactory): void {
  embedded = endpoint && handler ? { endpoint, handler } : undefined;
  doc = undefined;
  raw = undefined;
}

/** The document client's translation of JavaScript values (also what direct-commands.ts marshals with). */
export const DOCUMENT_MARSHALL = { removeUndefinedValues: true, convertClassInstanceToMap: false };
directTarget(() => {
  dynamoDocClient();
  return { raw: raw!, marshall: DOCUMENT_MARSHALL, unmarshall: {} };
});

/** The per-try timeout of DynamoDB calls: DYNAMODB_REQUEST_TIMEOUT_MS (a positive number of ms), else the default. */
export function dynamoRequestTimeoutMs(): number {
  const configured = Number(optionalEnv('DYNAMODB_REQUEST_TIMEOUT_MS'));
  return Number.isFinite(configured) && configured > 0 ? configured : DEFAULT_REQUEST_TIMEOUT_MS;
}

/**
 * The environment variable holding the embedded store's per-start secret (64 hex digits), set by the local service for
 * its own handlers next to DYNAMODB_ENDPOINT: the store refuses any request whose Authorization header does not carry
 * it as its signature (functions/local/store-guard.js). Unset for other local stores (DynamoDB Local in tests).
 */
export const STORE_SECRET_ENV = 'RTS_STORE_SECRET';

/**
 * A client of a local store (DYNAMODB_ENDPOINT: the embedded dynalite, DynamoDB Local), whose credentials are fixed
 * placeholders that no store verifies, sends without the per-request work meant for AWS: no SigV4 signature (a
 * fixed, well-formed Authorization header instead, which both stores require and parse; its Signature is the embedded
 * store's secret when there is one, which that store checks, else zeros), no user-agent string and no logger
 * middleware (no logger is configured). This roughly halves the SDK's CPU time per call, which is what bounds the
 * local service's throughput. Clients of AWS itself are never built this way.
 */
export function withoutSigning(client: DynamoDBClient, secret = optionalEnv(STORE_SECRET_ENV)): DynamoDBClient {
  const stack = client.middlewareStack;
  stack.remove('httpSigningMiddleware');
  stack.remove('getUserAgentMiddleware');
  stack.remove('loggerMiddleware');
  const region = optionalEnv('AWS_REGION', 'local');
  const signature = secret && /^[0-9a-f]{64}$/.test(secret) ? secret : '0'.repeat(64);
  stack.add(
    (next) => async (args) => {
      const request = args.request as { headers: Record<string, string> };
      request.headers['x-amz-date'] = LOCAL_DATE;
      request.headers.authorization = `AWS4-HMAC-SHA256 Credential=local/${LOCAL_DATE.slice(0, 8)}/${region}/dynamodb/aws4_request, SignedHeaders=host;x-amz-date, Signature=${signature}`;
      return next(args);
    },
    { step: 'finalizeRequest', name: 'localStoreAuthorization', priority: 'low' },
  );
  return client;
}

/** The placeholder signing date of local-store requests. */
const LOCAL_DATE = '20250101T000000Z';

export function dynamoDocClient(): DynamoDBDocumentClient {
  if (!doc) {
    const endpoint = optionalEnv('DYNAMODB_ENDPOINT');
    const timeout = dynamoRequestTimeoutMs();
    const requestHandler = endpoint && embedded?.endpoint === endpoint ? embedded.handler(timeout) : awsRequestHandler(timeout);
    const common = { maxAttempts: AWS_MAX_ATTEMPTS, requestHandler };
    raw = instrumented(
      endpoint
        ? withoutSigning(
            new DynamoDBClient({
              ...common,
              endpoint,
              region: optionalEnv('AWS_REGION', 'local'),
              credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
            }),
          )
        : new DynamoDBClient(common),
    );
    // The document client sends through the raw client's middleware stack, so capturing the raw client covers both.
    doc = DynamoDBDocumentClient.from(raw, { marshallOptions: { ...DOCUMENT_MARSHALL } });
  }
  return doc;
}
