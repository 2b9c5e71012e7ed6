// The webhook fan-out in a process of its own, as a delivery Lambda container runs apart from the create route:
// reads bus events (one JSON line each) on stdin, delivers each with the real handler, answers "done <id>" per line.
// Environment: DYNAMODB_ENDPOINT and TABLE_NAME (the shared store), RTS_TEST_CA (PEM the receiver's certificate is under).
import { randomUUID } from 'node:crypto';
import { createInterface } from 'node:readline';
import type { EventBridgeEvent } from 'aws-lambda';
import { DynamoDeliveryLogRepo } from '../../functions/adapters/dynamodb/delivery-log-repo';
import { DynamoWebhooksRepo } from '../../functions/adapters/dynamodb/webhooks-repo';
import { createGuardedSender } from '../../functions/adapters/http/guarded-sender';
import type { BusEvent } from '../../functions/core/events';
import { systemClock } from '../../functions/core/time';
import { realSleep } from '../../functions/core/webhooks/delivery';
import { createWebhookDeliveryHandler } from '../../functions/events/webhook-delivery';

const deliver = createWebhookDeliveryHandler({
  webhooks: new DynamoWebhooksRepo(),
  deliveryLog: new DynamoDeliveryLogRepo(),
  send: createGuardedSender({ allowPrivate: true, ca: process.env.RTS_TEST_CA ?? '' }),
  sleep: realSleep,
  clock: systemClock,
  uuid: randomUUID,
});

process.stdout.write('ready\n');
createInterface({ input: process.stdin }).on('line', (line) => {
  const detail = JSON.parse(line) as BusEvent;
  const event: EventBridgeEvent<string, BusEvent> = {
    version: '0',
    id: randomUUID(),
    'detail-type': detail.envelope.event_type,
    source: 'rts',
    account: '0',
    time: '',
    region: 'local',
    resources: [],
    detail,
  };
  deliver(event).then(
    () => process.stdout.write(`done ${detail.id}\n`),
    (err: Error) => process.stdout.write(`fail ${detail.id} ${err.message.replace(/\s+/g, ' ')}\n`),
  );
});
