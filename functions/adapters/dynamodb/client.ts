// The DynamoDB document client, built once per process; DYNAMODB_ENDPOINT points it at another endpoint (the local store).
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { AWS_MAX_ATTEMPTS, DEFAULT_REQUEST_TIMEOUT_MS, awsRequestHandler, instrumented, onAwsClientsReset } from '../aws';
import { optionalEnv } from '../env';

let doc: DynamoDBDocumentClient | undefined;
onAwsClientsReset(() => {
  doc = undefined;
});

/** The per-try timeout of DynamoDB calls: DYNAMODB_REQUEST_TIMEOUT_MS (a positive number of ms), else the default. */
export function dynamoRequestTimeoutMs(): number {
  const configured = Number(optionalEnv('DYNAMODB_REQUEST_TIMEOUT_MS'));
  return Number.isFinite(configured) && configured > 0 ? configured : DEFAULT_REQUEST_TIMEOUT_MS;
}

export function dynamoDocClient(): DynamoDBDocumentClient {
  if (!doc) {
    const endpoint = optionalEnv('DYNAMODB_ENDPOINT');
    const common = { maxAttempts: AWS_MAX_ATTEMPTS, requestHandler: awsRequestHandler(dynamoRequestTimeoutMs()) };
    const raw = instrumented(
      new DynamoDBClient(
        endpoint
          ? { ...common, endpoint, region: optionalEnv('AWS_REGION', 'local'), credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }
          : common,
      ),
    );
    // The document client sends through the raw client's middleware stack, so capturing the raw client covers both.
    doc = DynamoDBDocumentClient.from(raw, { marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false } });
  }
  return doc;
}
