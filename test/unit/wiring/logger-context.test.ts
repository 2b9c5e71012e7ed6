// The Lambda context on log lines: the HTTP chain (Powertools' middy middleware) and the handlers outside it.
import type { APIGatewayProxyEvent, EventBridgeEvent, SQSEvent } from 'aws-lambda';
import { contextFor, logLinesOf } from '../../helpers/log-lines';
import type { BusEvent } from '../../../functions/core/events';
import type { WebhookRecord } from '../../../functions/core/webhooks/schema';

// What Lambda sets: an on-demand environment (else Powertools reports cold_start false), and the level the logger
// starts with (the middleware resets the level to it on every invocation). Both are read when the logger is built,
// so the handlers are loaded below, after them.
const savedEnv = {
  AWS_LAMBDA_INITIALIZATION_TYPE: process.env.AWS_LAMBDA_INITIALIZATION_TYPE,
  POWERTOOLS_LOG_LEVEL: process.env.POWERTOOLS_LOG_LEVEL,
};
process.env.AWS_LAMBDA_INITIALIZATION_TYPE = 'on-demand';
process.env.POWERTOOLS_LOG_LEVEL = 'INFO';
/* eslint-disable @typescript-eslint/no-require-imports */
const { handler: webhookDelivery } =
  require('../../../functions/events/webhook-delivery') as typeof import('../../../functions/events/webhook-delivery');
const { configureDeps } = require('../../../functions/wiring/deps') as typeof import('../../../functions/wiring/deps');
const { route } = require('../../../functions/http-chain/route') as typeof import('../../../functions/http-chain/route');
const { logger } = require('../../../functions/wiring/logger') as typeof import('../../../functions/wiring/logger');
const { handler: deadLetter } = require('../../../functions/workers/dead-letter') as typeof import('../../../functions/workers/dead-letter');
/* eslint-enable @typescript-eslint/no-require-imports */

afterAll(() => {
  for (const [k, v] of Object.entries(savedEnv)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

function lineWithMessage(lines: Record<string, unknown>[], message: string): Record<string, unknown> {
  const line = lines.find((l) => l.message === message);
  if (!line) throw new Error(`no log line "${message}" in ${JSON.stringify(lines)}`);
  return line;
}

describe('route() handlers', () => {
  const probe = route({ method: 'GET', path: '/probe', auth: false }, async () => {
    logger.info('inside the route');
    return { status: 200, body: { ok: true } };
  });
  const event = { httpMethod: 'GET', path: '/probe', headers: {}, requestContext: { requestId: 'api-1' } } as unknown as APIGatewayProxyEvent;

  it("log with the invocation's request id, function name and cold start (true once, then false)", async () => {
    // Act
    const first = await logLinesOf(() => probe(event, contextFor('rts-get-probe', 'req-1')));
    const second = await logLinesOf(() => probe(event, contextFor('rts-get-probe', 'req-2')));
    // Assess
    expect(lineWithMessage(first, 'inside the route')).toMatchObject({
      level: 'INFO',
      service: 'rts',
      cold_start: true,
      function_request_id: 'req-1',
      function_name: 'rts-get-probe',
      function_memory_size: '512',
    });
    expect(lineWithMessage(second, 'inside the route')).toMatchObject({ cold_start: false, function_request_id: 'req-2' });
  });

  it("log the error mapper's lines with the context too", async () => {
    // Prepare
    const failing = route({ method: 'GET', path: '/boom', auth: false }, async () => {
      throw new Error('boom');
    });
    // Act
    const lines = await logLinesOf(() => failing(event, contextFor('rts-get-boom', 'req-3')));
    // Assess
    expect(lineWithMessage(lines, 'unhandled error')).toMatchObject({ level: 'ERROR', function_request_id: 'req-3', function_name: 'rts-get-boom' });
  });
});

describe('handlers outside the HTTP chain', () => {
  it("the dead-letter consumer logs with its invocation's request id", async () => {
    // Prepare
    const event = { Records: [{ messageId: 'm-1', body: 'not json', attributes: {}, messageAttributes: {} }] } as unknown as SQSEvent;
    // Act
    const lines = await logLinesOf(() => deadLetter(event, contextFor('rts-dead-letter', 'req-dl')));
    // Assess
    expect(lineWithMessage(lines, 'dropping malformed dead-lettered message')).toMatchObject({
      function_request_id: 'req-dl',
      function_name: 'rts-dead-letter',
      cold_start: expect.any(Boolean),
    });
  });

  it("webhook delivery logs with its invocation's request id", async () => {
    // Prepare
    const hook = {
      project_id: 'p',
      webhook_id: 'wh_1',
      url: 'https://down.example/',
      events: ['*'],
      is_enabled: true,
      secret: 'whsec_x',
    } as unknown as WebhookRecord;
    configureDeps({
      webhooks: {
        listAll: async () => [hook],
        get: async () => hook,
        recordFailure: async () => undefined,
      } as never,
      deliveryLog: {
        claimDelivery: async () => true,
        putDelivery: async () => undefined,
        putEvent: async () => undefined,
      } as never,
      http: async () => ({ status: 500, headers: {}, body: '', durationMs: 1 }),
      sleep: async () => undefined,
    });
    const envelope = { event_type: 'run.completed', project_id: 'p', created_at: '2026-01-01T00:00:00Z', data: {} };
    const event = { id: 'eb-1', detail: { id: 'run.completed:r1', envelope } } as unknown as EventBridgeEvent<string, BusEvent>;
    // Act
    const lines = await logLinesOf(() => webhookDelivery(event, contextFor('rts-webhook-delivery', 'req-wh')));
    configureDeps({ webhooks: undefined, deliveryLog: undefined, http: undefined, sleep: undefined });
    // Assess
    expect(lineWithMessage(lines, 'webhook deliveries failed')).toMatchObject({
      level: 'WARN',
      function_request_id: 'req-wh',
      function_name: 'rts-webhook-delivery',
    });
  });
});
