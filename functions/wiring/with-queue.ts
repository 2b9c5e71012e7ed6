// Wires the SQS adapter into getDeps(): imported by the bundle entry of a route whose row sets `queue` (lib/constructs/bundling.ts).
import { SqsQueue } from '../adapters/sqs/sqs-queue';
import { registerAdapter } from './deps';

registerAdapter('queue', () => new SqsQueue());
