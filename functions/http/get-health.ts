// GET /health: liveness, no credentials. It reads nothing of the service's state: its bundle carries no AWS client.
import { GET_HEALTH } from '../../lib/routes';
import { storelessRoute } from '../http-chain/chain';

export const handler = storelessRoute(GET_HEALTH, async () => ({ status: 200, body: { status: 'ok' } }));
