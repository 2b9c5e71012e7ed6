// GET /health: liveness, no credentials.
import { GET_HEALTH } from '../../lib/routes';
import { route } from '../http-chain/route';

export const handler = route(GET_HEALTH, async () => ({ status: 200, body: { status: 'ok' } }));
