// The project's zod instance, extended once with OpenAPI metadata so schemas double as the OpenAPI source.
import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

extendZodWithOpenApi(z);

export { z };
