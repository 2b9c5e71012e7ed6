// Wires the SSRF-guarded HTTP sender into getDeps(): imported by the functions that call agents or receivers (the
// workers), and by the bundle entry of a route whose row sets `http` (lib/constructs/bundling.ts).
import { createGuardedSender } from '../adapters/http/guarded-sender';
import { registerAdapter } from './deps';
import { allowPrivateTargets } from '../adapters/env';

registerAdapter('http', () => createGuardedSender({ allowPrivate: allowPrivateTargets() }));
