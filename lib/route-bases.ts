// The bases route rows share (lib/routes.ts, lib/webhook-routes.ts). The builders are marked free of side effects, and
// so is each call to one (`/* @__PURE__ */ read(...)`: esbuild honours the first only within this file), so a row built
// by one is dropped from every bundle that does not use it, as a plain object literal is.
import type { RouteRow } from '../functions/core/route-row';

type Based<B> = Omit<RouteRow, keyof B> & Partial<RouteRow>;
const PUBLIC = { method: 'GET', auth: false, table: 'none', status: 200 } as const;
const READ = { method: 'GET', auth: true, table: 'read', status: 200 } as const;
const WEBHOOK_COMMAND = { method: 'POST', auth: true, table: 'readwrite', bus: true, status: 202 } as const;

/** A public read: health, this document (neither touches the table). */
/* @__NO_SIDE_EFFECTS__ */
export function publicRead(row: Based<typeof PUBLIC>): RouteRow {
  return { ...PUBLIC, ...row };
}

/** An authenticated read. */
/* @__NO_SIDE_EFFECTS__ */
export function read(row: Based<typeof READ>): RouteRow {
  return { ...READ, ...row };
}

/** A webhook route that queues work for the delivery function through the bus (resend, recover, test): 202. */
/* @__NO_SIDE_EFFECTS__ */
export function webhookCommand(row: Based<typeof WEBHOOK_COMMAND>): RouteRow {
  return { ...WEBHOOK_COMMAND, ...row };
}
