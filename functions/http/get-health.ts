// GET /health: liveness, no credentials.
import { route } from '../shared/http';

export const handler = route({ name: 'GET /health', auth: false }, async () => ({ status: 200, body: { status: 'ok' } }));
