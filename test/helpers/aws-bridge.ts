// SQS and EventBridge on loopback, speaking the wire protocols the bundles' own SDK clients use, feeding the local runtime's
// in-process queue and bus: SendMessageBatch (AWS JSON 1.0) to the replay queue, PutEvents (AWS JSON 1.1) through the
// delivery rule's event pattern to the bus. Test-only (test/infra/bundles-e2e.test.ts): it implements what rts calls,
// checks what the real services would refuse (unknown queue or bus, unsigned calls), and nothing more.
import { createHash, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BusEvent } from '../../functions/core/events';
import type { EventPublisher, QueuePort, ReplayMessage } from '../../functions/core/ports';

export interface AwsBridgeOptions {
  /** Name in the queue URL (`http://127.0.0.1:<port>/<account>/<queueName>`). */
  queueName: string;
  busName: string;
  /**
   * EventPattern of the rule that feeds the bus's target; only top-level `source` / `detail-type` lists of exact
   * values are understood (what the stack's rule uses); any other field is refused at start rather than ignored.
   */
  eventPattern: Record<string, unknown>;
  /** @default '000000000000' */
  account?: string;
}

export interface AwsBridge {
  /** Give it to the SDK as AWS_ENDPOINT_URL_SQS and AWS_ENDPOINT_URL_EVENTBRIDGE. */
  endpoint: string;
  queueUrl: string;
  busName: string;
  /** Calls answered, by operation; events no rule matched (dropped, as EventBridge does) and events refused. */
  readonly calls: { sendMessageBatch: number; putEvents: number; unmatched: number; refused: number };
  /** Connects the queue and the bus; calls before that answer 503 (the SDK retries them). */
  attach(queue: QueuePort, bus: EventPublisher): void;
  /**
   * Makes PutEvents fail the entries `refused` picks, as EventBridge reports a partial failure (FailedEntryCount and
   * an ErrorCode on the entry, HTTP 200); undefined ends the outage.
   */
  refuseEvents(refused?: (event: BusEvent, detailType: string) => boolean): void;
  close(): Promise<void>;
}

const PATTERN_FIELDS: Record<string, 'Source' | 'DetailType'> = { source: 'Source', 'detail-type': 'DetailType' };

/** The rule's matcher, from its EventPattern. */
function ruleMatcher(pattern: Record<string, unknown>): (entry: Record<string, unknown>) => boolean {
  const checks = Object.entries(pattern).map(([field, values]) => {
    const key = PATTERN_FIELDS[field];
    if (!key || !Array.isArray(values) || !values.every((v) => typeof v === 'string')) {
      throw new Error(`aws-bridge: event pattern field ${field}=${JSON.stringify(values)} is not supported`);
    }
    return (entry: Record<string, unknown>) => values.includes(entry[key] as string);
  });
  return (entry) => checks.every((check) => check(entry));
}

class AwsError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}

function readJson(req: IncomingMessage): Promise<Record<string, any>> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}'));
      } catch {
        reject(new AwsError(400, 'SerializationException', 'the body is not JSON'));
      }
    });
    req.on('error', reject);
  });
}

export async function startAwsBridge(opts: AwsBridgeOptions): Promise<AwsBridge> {
  const matches = ruleMatcher(opts.eventPattern);
  const calls = { sendMessageBatch: 0, putEvents: 0, unmatched: 0, refused: 0 };
  let targets: { queue: QueuePort; bus: EventPublisher } | undefined;
  let refused: ((event: BusEvent, detailType: string) => boolean) | undefined;
  let queueUrl = '';

  async function sendMessageBatch(body: Record<string, any>) {
    if (body.QueueUrl !== queueUrl)
      throw new AwsError(400, 'com.amazonaws.sqs#QueueDoesNotExist', `The specified queue does not exist: ${body.QueueUrl}`);
    const entries = (body.Entries ?? []) as { Id: string; MessageBody: string; DelaySeconds?: number }[];
    if (entries.length < 1 || entries.length > 10)
      throw new AwsError(400, 'com.amazonaws.sqs#TooManyEntriesInBatchRequest', `${entries.length} entries`);
    for (const e of entries) {
      const delay = e.DelaySeconds ?? 0;
      await targets!.queue.sendReplay([JSON.parse(e.MessageBody) as ReplayMessage], delay ? { delaySeconds: delay } : {});
    }
    calls.sendMessageBatch++;
    return {
      Successful: entries.map((e) => ({
        Id: e.Id,
        MessageId: randomUUID(),
        MD5OfMessageBody: createHash('md5').update(e.MessageBody).digest('hex'),
      })),
      Failed: [],
    };
  }

  async function putEvents(body: Record<string, any>) {
    const entries = (body.Entries ?? []) as Record<string, unknown>[];
    if (entries.length < 1 || entries.length > 10) throw new AwsError(400, 'ValidationException', `${entries.length} entries`);
    const unknownBus = entries.find((e) => (e.EventBusName ?? 'default') !== opts.busName);
    if (unknownBus) throw new AwsError(400, 'ResourceNotFoundException', `Event bus ${String(unknownBus.EventBusName ?? 'default')} does not exist.`);
    const results = entries.map((e) => {
      const event = JSON.parse(String(e.Detail)) as BusEvent;
      return { entry: e, event, refused: refused?.(event, String(e.DetailType)) ?? false };
    });
    const accepted = results.filter((r) => !r.refused);
    const matched = accepted.filter((r) => matches(r.entry));
    calls.unmatched += accepted.length - matched.length;
    calls.refused += results.length - accepted.length;
    await targets!.bus.publish(matched.map((r) => r.event));
    calls.putEvents++;
    return {
      FailedEntryCount: results.length - accepted.length,
      Entries: results.map((r) =>
        r.refused ? { ErrorCode: 'InternalFailure', ErrorMessage: 'refused by the test (simulated outage)' } : { EventId: randomUUID() },
      ),
    };
  }

  const operations: Record<string, { contentType: string; run: (body: Record<string, any>) => Promise<unknown> }> = {
    'AmazonSQS.SendMessageBatch': { contentType: 'application/x-amz-json-1.0', run: sendMessageBatch },
    'AWSEvents.PutEvents': { contentType: 'application/x-amz-json-1.1', run: putEvents },
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const target = String(req.headers['x-amz-target'] ?? '');
    const op = operations[target];
    const contentType = op?.contentType ?? 'application/x-amz-json-1.0';
    try {
      if (!op) throw new AwsError(400, 'UnknownOperationException', `aws-bridge does not implement ${target || `${req.method} ${req.url}`}`);
      if (!String(req.headers.authorization ?? '').startsWith('AWS4-HMAC-SHA256 '))
        throw new AwsError(403, 'MissingAuthenticationTokenException', 'unsigned request');
      const body = await readJson(req);
      if (!targets) throw new AwsError(503, 'ServiceUnavailable', 'the local queue and bus are not attached yet');
      const out = JSON.stringify(await op.run(body));
      res.writeHead(200, { 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(out), 'x-amzn-RequestId': randomUUID() });
      res.end(out);
    } catch (err) {
      const e = err instanceof AwsError ? err : new AwsError(500, 'InternalFailure', (err as Error).message);
      const out = JSON.stringify({ __type: e.type, message: e.message });
      res.writeHead(e.status, { 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(out), 'x-amzn-RequestId': randomUUID() });
      res.end(out);
    }
  }

  const server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  queueUrl = `${endpoint}/${opts.account ?? '000000000000'}/${opts.queueName}`;
  return {
    endpoint,
    queueUrl,
    busName: opts.busName,
    calls,
    attach(queue, bus) {
      targets = { queue, bus };
    },
    refuseEvents(predicate) {
      refused = predicate;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
