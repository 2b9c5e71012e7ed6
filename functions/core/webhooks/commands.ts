// Work for the delivery function that is not a project event (resend, recover, test), carried on the same bus.
//
// A command travels as a BusEvent whose envelope has the reserved type `rts.webhook.command` and the command as its
// data: the bus, its publisher and the local stand-in carry it unchanged, and the delivery function, the one
// consumer of the bus, reads it before any fan-out. It is never delivered as it is: no webhook can subscribe to the
// type, and "*" subscribers never see it because commands do not reach the fan-out.
import type { BusEvent, EventType } from '../events';
import { isUuid, isWebhookId } from '../ids';

export const WEBHOOK_COMMAND_TYPE = 'rts.webhook.command';

/** The first delivery of a kept event to one webhook, whatever it subscribes to (the test event). */
export interface SendCommand {
  kind: 'send';
  webhook_id: string;
  event_id: string;
  delivery_id: string;
}

/** A new delivery of a logged one: same delivery id, the kept event's bytes, the tries appended to its log entry. */
export interface RedeliverCommand {
  kind: 'redeliver';
  webhook_id: string;
  delivery_id: string;
  /** A recover's claim on (delivery, version): the command runs only while the claim is still this recover's. */
  claim?: { key: string; holder: string };
  /**
   * The failed delivery just before this one in the log (queued by this recover or by one at the same time), and its
   * version then: this one waits for it to finish.
   */
  after?: { delivery_id: string; version: number };
}

export type WebhookCommand = SendCommand | RedeliverCommand;

/** The bus event carrying a command. */
export function commandEvent(id: string, projectId: string, createdAt: string, command: WebhookCommand): BusEvent {
  return {
    id,
    envelope: {
      event_type: WEBHOOK_COMMAND_TYPE as unknown as EventType,
      project_id: projectId,
      created_at: createdAt,
      data: { ...command },
    },
  };
}

/** The command a bus event carries; null for a project event. Throws on a command of the wrong shape. */
export function webhookCommandOf(event: BusEvent): WebhookCommand | null {
  if ((event.envelope.event_type as string) !== WEBHOOK_COMMAND_TYPE) return null;
  const d = event.envelope.data as Record<string, unknown>;
  if (!isWebhookId(d.webhook_id)) throw new Error(`webhook command ${event.id}: no valid webhook_id`);
  if (d.kind === 'send' && typeof d.event_id === 'string' && d.event_id !== '' && isUuid(d.delivery_id)) {
    return { kind: 'send', webhook_id: d.webhook_id, event_id: d.event_id, delivery_id: d.delivery_id };
  }
  if (d.kind === 'redeliver' && isUuid(d.delivery_id)) {
    const claim = d.claim as RedeliverCommand['claim'];
    const after = d.after as RedeliverCommand['after'];
    return {
      kind: 'redeliver',
      webhook_id: d.webhook_id,
      delivery_id: d.delivery_id,
      ...(claim && typeof claim.key === 'string' && typeof claim.holder === 'string' ? { claim: { key: claim.key, holder: claim.holder } } : {}),
      ...(after && isUuid(after.delivery_id) && Number.isInteger(after.version)
        ? { after: { delivery_id: after.delivery_id, version: after.version } }
        : {}),
    };
  }
  throw new Error(`webhook command ${event.id}: unknown kind or missing fields`);
}

/** The claim key of a recover on one log entry as it read it: a later version (after a redelivery) is a new key. */
export const recoverClaimKey = (deliveryId: string, version: number) => `recover:${deliveryId}:${version}`;
/** The claim that makes a command run once, however often the bus or the function retries it. */
export const commandClaimKey = (commandId: string) => `command:${commandId}`;
