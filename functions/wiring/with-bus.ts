// Wires the EventBridge adapter into getDeps(): imported by the bundle entry of a route whose row sets `bus`
// (lib/constructs/bundling.ts), and by the workers that publish.
import { EventBridgePublisher } from '../adapters/eventbridge/eventbridge-publisher';
import { registerAdapter } from './deps';

registerAdapter('events', () => new EventBridgePublisher());
