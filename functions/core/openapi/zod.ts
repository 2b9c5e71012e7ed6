// Classic zod, extended once with OpenAPI metadata: the response schemas, the OpenAPI document generator and the CLI use
// it. Request schemas, which the Lambda handlers bundle, are built on zod/mini instead (zod-mini.ts).
import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

extendZodWithOpenApi(z);

export { z };
