// Building blocks of the request schemas, in zod/mini like them (./zod-mini.ts), shared so that each is declared once.
import * as z from './zod-mini';

/** An id sent by a client (trace, campaign, batch...): a UUID v4 in any case, stored and compared lowercase (docs/api.md#ids). */
export const uuidIn = z.pipe(
  z.uuid({ version: 'v4' }),
  z.transform((s: string) => s.toLowerCase()),
);
