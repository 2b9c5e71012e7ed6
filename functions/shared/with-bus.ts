// Side-effect import for handlers that publish project events: wires the EventBridge adapter into getDeps().
import { EventBridgePublisher } from '../adapters/eventbridge/eventbridge-publisher';
import { registerAdapter } from './deps';

registerAdapter('events', () => new EventBridgePublisher());
