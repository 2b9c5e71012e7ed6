// Side-effect import for handlers that send replay messages: wires the SQS adapter into getDeps().
import { SqsQueue } from '../adapters/sqs/sqs-queue';
import { registerAdapter } from './deps';

registerAdapter('queue', () => new SqsQueue());
