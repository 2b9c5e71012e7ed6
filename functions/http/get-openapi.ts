// GET /v1/openapi.json: the OpenAPI 3.1 document (no credentials).
import { routes } from '../../lib/routes';
import { openApiDocument } from '../core/openapi';
import { route } from '../shared/http';

export const handler = route({ name: 'GET /v1/openapi.json', auth: false }, async () => ({ status: 200, body: openApiDocument(routes) }));
