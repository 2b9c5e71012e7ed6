// Builds project events with the delivery envelope (docs/webhooks.md#events) and hands them to the event port.
import type { Deps } from './ports';
import type { BusEvent, EventType } from './events';
import { isoMicros } from './time';

/** One event; `id` defaults to a fresh uuid (API-emitted events happen once per request). */
export function projectEvent(
  deps: Pick<Deps, 'clock' | 'uuid'>,
  projectId: string,
  eventType: EventType,
  data: Record<string, unknown>,
  id?: string,
): BusEvent {
  return {
    id: id ?? deps.uuid(),
    envelope: { event_type: eventType, project_id: projectId, created_at: isoMicros(deps.clock.now()), data },
  };
}
