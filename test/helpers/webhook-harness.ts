// A deterministic delivery harness: in-memory repositories, scripted sender, a clock that sleeps advance, recorded sleeps.
import type { BusEvent, EventType } from '../../functions/core/events';
import type { DeliveryDeps } from '../../functions/core/webhooks/delivery';
import type { WebhookRecord } from '../../functions/core/webhooks/schema';
import { OutboundError, type OutboundRequest, type OutboundResponse } from '../../functions/core/ports';
import { MemoryDeliveryLogRepo } from './memory-delivery-log-repo';
import { MemoryWebhooksRepo } from './memory-webhooks-repo';

export const PROJECT = '0b7d3f0e-4f7a-4c52-9b1e-0c7d2e9f4a11';

export type Reply = number | OutboundError | (() => Promise<OutboundResponse>);

export interface Harness {
  deps: DeliveryDeps;
  repo: MemoryWebhooksRepo;
  deliveryLog: MemoryDeliveryLogRepo;
  sent: OutboundRequest[];
  sleeps: number[];
  errors: { message: string; extra: Record<string, unknown> }[];
  /** Replies for the coming tries, in order; the last one repeats. */
  reply(...replies: Reply[]): void;
  hook(id: string, overrides?: Partial<WebhookRecord>): WebhookRecord;
}

export const ok = (status = 200): OutboundResponse => ({ status, headers: {}, body: '', durationMs: 5 });
export const timeout = () => new OutboundError('timeout', 'timeout after 5000 ms');
export const refused = () => new OutboundError('connection', 'connection error: ECONNREFUSED');

export function busEvent(type: EventType = 'run.completed', id = 'evt-1', data: Record<string, unknown> = { run_id: 'r1' }): BusEvent {
  return { id, envelope: { event_type: type, project_id: PROJECT, created_at: '2026-11-21T12:00:00.000000+00:00', data } };
}

export function harness(): Harness {
  const repo = new MemoryWebhooksRepo();
  const deliveryLog = new MemoryDeliveryLogRepo();
  let now = Date.parse('2026-11-21T12:00:00Z');
  const sent: OutboundRequest[] = [];
  const sleeps: number[] = [];
  const errors: Harness['errors'] = [];
  let replies: Reply[] = [200];
  let ids = 0;
  const deps: DeliveryDeps = {
    webhooks: repo,
    deliveryLog,
    clock: { now: () => new Date(now) },
    sleep: async (ms) => {
      sleeps.push(ms);
      now += ms;
    },
    uuid: () => `00000000-0000-4000-8000-${String(++ids).padStart(12, '0')}`,
    send: async (req) => {
      sent.push(req);
      now += 10;
      const r = replies.length > 1 ? replies.shift()! : replies[0];
      if (typeof r === 'number') return ok(r);
      if (r instanceof OutboundError) throw r;
      return r();
    },
    logError: (message, extra) => errors.push({ message, extra }),
  };
  return {
    deps,
    repo,
    deliveryLog,
    sent,
    sleeps,
    errors,
    reply: (...r) => {
      replies = r;
    },
    hook: (id, overrides = {}) => {
      const record: WebhookRecord = {
        project_id: PROJECT,
        webhook_id: id,
        url: `https://${id}.example.com/hook`,
        events: ['*'],
        is_enabled: true,
        description: null,
        secret: `whsec_${id}`,
        created_at: '2026-11-20T00:00:00.000000+00:00',
        updated_at: '2026-11-20T00:00:00.000000+00:00',
        last_error: null,
        last_error_at: null,
        last_delivery_at: null,
        last_status: null,
        ...overrides,
      };
      repo.hooks.set(`${PROJECT}/${id}`, record);
      return record;
    },
  };
}
