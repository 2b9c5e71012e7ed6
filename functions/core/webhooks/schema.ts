// Request bodies of the webhook routes (docs/webhooks.md#create-and-manage) and the records they become.
import { EVENT_TYPES, type DeliveredEventType, type EventType } from '../events';
import { openapi } from '../openapi/meta';
import * as z from '../openapi/zod-mini';

/** A project holds at most this many webhooks (docs/webhooks.md#rules). */

/** Why a webhook URL is unacceptable, or null when it is fine: https, absolute, no user:password. */
export function webhookUrlProblem(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'url must be a valid absolute URL';
  }
  if (url.protocol !== 'https:') return 'url must use https://';
  if (url.username !== '' || url.password !== '') return 'url must not contain credentials (user:password@)';
  if (url.hostname === '') return 'url must name a host';
  return null;
}

const webhookUrl = openapi(
  z.string().check(
    z.maxLength(2048),
    z.superRefine((value, ctx) => {
      const problem = webhookUrlProblem(value);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
  ),
  { description: 'https:// URL that receives the signed POSTs', example: 'https://example.com/hooks/rts' },
);

/** `["*"]` or a non-empty list of known event types; duplicates are folded. */
const eventsField = openapi(
  z.pipe(
    z.array(z.string()).check(
      z.minLength(1, 'events must list at least one event type, or be ["*"]'),
      z.maxLength(EVENT_TYPES.length + 1),
      z.superRefine((events, ctx) => {
        if (events.includes('*') && events.some((e) => e !== '*')) {
          ctx.addIssue({ code: 'custom', message: '"*" subscribes to every event and cannot be combined with event types' });
          return;
        }
        events.forEach((e, i) => {
          if (e !== '*' && !(EVENT_TYPES as readonly string[]).includes(e)) {
            ctx.addIssue({ code: 'custom', path: [i], message: `unknown event type ${JSON.stringify(e)}; known: ${EVENT_TYPES.join(', ')} or "*"` });
          }
        });
      }),
    ),
    z.transform((events: string[]) => [...new Set(events)] as WebhookEvents),
  ),
  {
    description: 'event types to receive, or ["*"] for all',
    example: ['run.completed', 'ci.decision.fail'],
    override: { items: { type: 'string', enum: [...EVENT_TYPES, '*'] } },
  },
);

const description = z.nullable(z.string().check(z.maxLength(500)));

/** Body of POST /v1/webhooks. `url` comes first so that its issue is `details[0]` when several fields are wrong. */
export const webhookCreateSchema = openapi(
  z.object({
    url: webhookUrl,
    events: eventsField,
    is_enabled: z._default(z.boolean(), true),
    description: z.pipe(
      z.optional(description),
      z.transform((d: string | null | undefined) => d ?? null),
    ),
  }),
  { name: 'WebhookCreate' },
);
export type WebhookCreateInput = z.output<typeof webhookCreateSchema>;

/** Body of PATCH /v1/webhooks/{id}: any of the create fields, same rules, at least one. */
export const webhookPatchSchema = openapi(
  z
    .object({
      url: z.optional(webhookUrl),
      events: z.optional(eventsField),
      is_enabled: z.optional(z.boolean()),
      description: z.optional(description),
    })
    .check(
      z.refine((p) => p.url !== undefined || p.events !== undefined || p.is_enabled !== undefined || p.description !== undefined, {
        message: 'provide at least one of url, events, is_enabled, description',
      }),
    ),
  { name: 'WebhookPatch' },
);
export type WebhookPatchInput = z.output<typeof webhookPatchSchema>;

export type WebhookEvents = ['*'] | EventType[];

/** A stored webhook. `secret` never leaves the service except in the create and rotate responses. */
export interface WebhookRecord {
  project_id: string;
  webhook_id: string;
  url: string;
  events: WebhookEvents;
  is_enabled: boolean;
  description: string | null;
  secret: string;
  created_at: string;
  updated_at: string;
  /** The last failure after all retries: "HTTP 500", "timeout after 5000 ms", "connection error: ECONNREFUSED", "blocked: ...". */
  last_error: string | null;
  last_error_at: string | null;
  /** When the last successful delivery was acknowledged, and with which status. */
  last_delivery_at: string | null;
  last_status: number | null;
}

/** What GET/list/PATCH return: the record without its secret and owner. */
export type WebhookView = Omit<WebhookRecord, 'secret' | 'project_id' | 'updated_at'>;

/** What POST returns: the view plus the secret, once. */
export type WebhookCreated = Pick<WebhookRecord, 'webhook_id' | 'url' | 'events' | 'is_enabled' | 'description' | 'secret' | 'created_at'>;

/** One try of a delivery, as the delivery log shows it. */
export interface DeliveryAttempt {
  at: string;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
}

export type DeliveryOutcome = 'succeeded' | 'failed' | 'skipped';

/** One delivery log entry (kept 7 days). Resends and recoveries append their tries to it. */
export interface DeliveryLogEntry {
  delivery_id: string;
  event_type: DeliveredEventType;
  created_at: string;
  outcome: DeliveryOutcome;
  attempts: DeliveryAttempt[];
}

/**
 * A log entry as the store keeps it: plus the id of the kept event (null for entries written before events were
 * kept: those cannot be sent again) and a version that every resend or recovery of it increments.
 */
export interface StoredDelivery extends DeliveryLogEntry {
  event_id: string | null;
  version: number;
}

/** An event kept 7 days beside the delivery log, so that resend and recover send the very bytes of the first try. */
export interface StoredEvent {
  event_type: DeliveredEventType;
  body: string;
}
