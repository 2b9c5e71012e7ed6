// AWS clients, built once per process; DYNAMODB_ENDPOINT points the document client at another endpoint (the local store).
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { EventBridgeClient } from '@aws-sdk/client-eventbridge';
import { SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { optionalEnv } from './env';

let doc: DynamoDBDocumentClient | undefined;
let sqs: SQSClient | undefined;
let eventBridge: EventBridgeClient | undefined;

export function dynamoDocClient(): DynamoDBDocumentClient {
  if (!doc) {
    const endpoint = optionalEnv('DYNAMODB_ENDPOINT');
    const raw = new DynamoDBClient(
      endpoint
        ? { endpoint, region: optionalEnv('AWS_REGION', 'local'), credentials: { accessKeyId: 'local', secretAccessKey: 'local' }, maxAttempts: 5 }
        : { maxAttempts: 5 },
    );
    doc = DynamoDBDocumentClient.from(raw, { marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false } });
  }
  return doc;
}

export function sqsClient(): SQSClient {
  return (sqs ??= new SQSClient({}));
}

export function eventBridgeClient(): EventBridgeClient {
  return (eventBridge ??= new EventBridgeClient({}));
}

/** Forgets cached clients (tests that switch endpoints). */
export function resetAwsClients(): void {
  doc = undefined;
  sqs = undefined;
  eventBridge = undefined;
}
