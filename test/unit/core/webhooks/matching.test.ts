// Subscription matching: "*" receives every event type, a filtered webhook only its types, a paused one nothing.
import { EVENT_TYPES } from '../../../../functions/core/events';
import { recipients, subscribesTo } from '../../../../functions/core/webhooks/matching';
import type { WebhookRecord } from '../../../../functions/core/webhooks/schema';

const hook = (id: string, events: WebhookRecord['events'], is_enabled = true) => ({ webhook_id: id, events, is_enabled }) as WebhookRecord;

describe('subscription matching', () => {
  it('gives every event type to a "*" subscriber', () => {
    for (const type of EVENT_TYPES) expect(subscribesTo(['*'], type)).toBe(true);
  });

  it('gives a filtered subscriber only the types it lists', () => {
    const listed = ['run.completed', 'ci.decision.fail'];

    const received = EVENT_TYPES.filter((t) => subscribesTo(listed, t));

    expect(received).toEqual(['run.completed', 'ci.decision.fail']);
  });

  it('leaves paused webhooks out of the recipients', () => {
    const hooks = [hook('all', ['*']), hook('paused', ['*'], false), hook('runs', ['run.completed']), hook('traces', ['trace.created'])];

    expect(recipients(hooks, 'run.completed').map((h) => h.webhook_id)).toEqual(['all', 'runs']);
  });
});
