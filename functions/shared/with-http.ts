// Side-effect import for handlers that call agents: wires the SSRF-guarded HTTP sender into getDeps().
import { createGuardedSender } from '../adapters/http/guarded-sender';
import { registerAdapter } from './deps';
import { allowPrivateTargets } from '../adapters/env';

registerAdapter('http', () => createGuardedSender({ allowPrivate: allowPrivateTargets() }));
