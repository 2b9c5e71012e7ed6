// X-Ray wiring: off outside Lambda; in Lambda, one `aws` subsegment per AWS call (its id sent downstream in the trace
// header) and one `remote` subsegment per guarded send, each sent as a document to the daemon's UDP address, here a
// socket of the test's own.
import { createServer, type Server } from 'node:http';
import { createSocket, type Socket } from 'node:dgram';
import type { AddressInfo } from 'node:net';
import { GetQueueUrlCommand, SQSClient } from '@aws-sdk/client-sqs';
import { resetAwsClients, sqsClient } from '../../../functions/adapters/aws';
import { createGuardedSender } from '../../../functions/adapters/http/guarded-sender';
import { daemonAddress, parseTraceHeader } from '../../../functions/adapters/xray/segments';
import { resetTracer, traceAwsClient, tracingOn, tracingWanted } from '../../../functions/wiring/tracer';
import '../../../functions/wiring/with-tracing';

const LAMBDA_ENV = { AWS_LAMBDA_FUNCTION_NAME: 'rts-replay-worker', AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x' };
const ROOT = '1-67891233-abcdef012345678912345678';
const KEYS = [
  'AWS_LAMBDA_FUNCTION_NAME',
  'AWS_EXECUTION_ENV',
  'AWS_SAM_LOCAL',
  'POWERTOOLS_TRACE_ENABLED',
  '_X_AMZN_TRACE_ID',
  'AWS_XRAY_DAEMON_ADDRESS',
] as const;
const saved = Object.fromEntries(KEYS.map((k) => [k, process.env[k]]));

let daemon: Socket;
let daemonPort: number;
let documents: { raw: string; doc: Record<string, unknown> }[] = [];

function setEnv(env: Partial<Record<(typeof KEYS)[number], string>>): void {
  for (const k of KEYS) delete process.env[k];
  Object.assign(process.env, env);
  resetTracer();
}

const inLambda = (sampled = '1') =>
  setEnv({
    ...LAMBDA_ENV,
    _X_AMZN_TRACE_ID: `Root=${ROOT};Parent=53995c3f42cd8ad8;Sampled=${sampled}`,
    AWS_XRAY_DAEMON_ADDRESS: `127.0.0.1:${daemonPort}`,
  });

/** The documents the daemon has received once `n` are in (UDP on loopback: they arrive within milliseconds). */
async function received(n: number): Promise<Record<string, unknown>[]> {
  for (let i = 0; i < 200 && documents.length < n; i++) await new Promise((r) => setTimeout(r, 10));
  return documents.map((d) => d.doc);
}

beforeAll(async () => {
  daemon = createSocket('udp4');
  daemon.on('message', (msg) => {
    const raw = msg.toString('utf8');
    documents.push({ raw, doc: JSON.parse(raw.slice(raw.indexOf('\n') + 1)) as Record<string, unknown> });
  });
  await new Promise<void>((resolve) => daemon.bind(0, '127.0.0.1', resolve));
  daemonPort = daemon.address().port;
});
afterAll(() => daemon.close());

afterEach(() => {
  setEnv(Object.fromEntries(Object.entries(saved).filter(([, v]) => v !== undefined)) as Record<string, string>);
  resetAwsClients();
  documents = [];
});

describe('tracingWanted', () => {
  it.each([
    ['traces in a Lambda function', LAMBDA_ENV, true],
    ['does not trace without the Lambda variables (local service, tests, CLI)', {}, false],
    ['does not trace on another AWS host that sets AWS_EXECUTION_ENV (CloudShell)', { AWS_EXECUTION_ENV: 'CloudShell' }, false],
    ['does not trace in Lambda with POWERTOOLS_TRACE_ENABLED=false', { ...LAMBDA_ENV, POWERTOOLS_TRACE_ENABLED: 'false' }, false],
    ['does not trace under SAM local', { ...LAMBDA_ENV, AWS_SAM_LOCAL: 'true' }, false],
  ])('%s', (_name, env, wanted) => {
    expect(tracingWanted(env as NodeJS.ProcessEnv)).toBe(wanted);
  });
});

describe('the trace header and the daemon address', () => {
  it('reads the root, the parent and the sampling decision; nothing without a root and a parent', () => {
    expect(parseTraceHeader(`Root=${ROOT};Parent=53995c3f42cd8ad8;Sampled=1;Lineage=a:0`)).toEqual({
      root: ROOT,
      parent: '53995c3f42cd8ad8',
      sampled: true,
    });
    expect(parseTraceHeader(`Root=${ROOT};Sampled=1`)).toBeUndefined();
    expect(parseTraceHeader(undefined)).toBeUndefined();
  });

  it('takes the UDP address of either form, else the default', () => {
    expect(daemonAddress('169.254.79.129:2000')).toEqual({ host: '169.254.79.129', port: 2000 });
    expect(daemonAddress('tcp:10.0.0.1:2001 udp:10.0.0.2:2002')).toEqual({ host: '10.0.0.2', port: 2002 });
    expect(daemonAddress(undefined)).toEqual({ host: '127.0.0.1', port: 2000 });
  });
});

describe('outside Lambda', () => {
  it('with-tracing leaves clients and sends alone and sends nothing', async () => {
    // Prepare
    setEnv({});
    const send = createGuardedSender({ allowPrivate: true });
    // Act
    const client = sqsClient();
    const refused = await send({ url: 'http://127.0.0.1:1/', method: 'GET', headers: {}, timeoutMs: 1000 }).catch((e: Error) => e);
    // Assess
    expect(client).toBeInstanceOf(SQSClient);
    expect(refused).toBeInstanceOf(Error);
    expect(tracingOn()).toBe(false);
    expect(await received(0)).toEqual([]);
  });
});

describe('in Lambda with tracing (wiring/with-tracing)', () => {
  let server: Server;
  let base: string;
  const traceHeaders: (string | undefined)[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      traceHeaders.push(req.headers['x-amzn-trace-id'] as string | undefined);
      if (req.headers['x-amz-target']?.includes('GetQueueUrl')) {
        const missing = req.headers['x-amz-target'] && traceHeaders.length > 1;
        res.writeHead(missing ? 400 : 200, { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-requestid': missing ? 'req-2' : 'req-1' });
        res.end(
          missing
            ? JSON.stringify({ __type: 'com.amazonaws.sqs#QueueDoesNotExist', message: 'no queue' })
            : JSON.stringify({ QueueUrl: 'https://q' }),
        );
        return;
      }
      res.writeHead(req.url === '/busy' ? 429 : 503).end('no');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('sends one aws subsegment per call, whose id is the parent in the call trace header', async () => {
    // Prepare
    inLambda();
    traceHeaders.length = 0;
    const client = traceAwsClient(
      new SQSClient({ endpoint: base, region: 'eu-west-1', credentials: { accessKeyId: 'a', secretAccessKey: 'b' }, maxAttempts: 1 }),
    );
    // Act
    await client.send(new GetQueueUrlCommand({ QueueName: 'q' }));
    const failed = await client.send(new GetQueueUrlCommand({ QueueName: 'gone' })).catch((e: Error) => e);
    // Assess
    expect(failed).toBeInstanceOf(Error);
    const [ok, bad] = await received(2);
    expect(ok).toEqual({
      name: 'SQS',
      id: expect.stringMatching(/^[0-9a-f]{16}$/),
      trace_id: ROOT,
      parent_id: '53995c3f42cd8ad8',
      type: 'subsegment',
      start_time: expect.any(Number),
      end_time: expect.any(Number),
      namespace: 'aws',
      aws: { operation: 'GetQueueUrl', region: 'eu-west-1', request_id: 'req-1', retries: 0 },
      http: { response: { status: 200 } },
    });
    expect(documents[0].raw.startsWith('{"format":"json","version":1}\n')).toBe(true);
    expect(traceHeaders[0]).toBe(`Root=${ROOT};Parent=${String(ok.id)};Sampled=1`);
    expect(bad).toMatchObject({ aws: { operation: 'GetQueueUrl', request_id: 'req-2' }, http: { response: { status: 400 } }, error: true });
    expect(bad.fault).toBeUndefined();
    expect(bad.cause).toEqual({ exceptions: [{ id: expect.any(String), message: 'no queue', type: 'QueueDoesNotExist', remote: true }] });
  });

  it('sends nothing for an invocation that is not sampled', async () => {
    // Prepare
    inLambda('0');
    const send = createGuardedSender({ allowPrivate: true });
    // Act
    await send({ url: `${base}/hook`, method: 'POST', headers: {}, body: '{}', timeoutMs: 2000 });
    // Assess
    expect(await received(0)).toEqual([]);
  });

  it('wraps each guarded send in a remote subsegment named after the host, without the query', async () => {
    // Prepare
    inLambda();
    const send = createGuardedSender({ allowPrivate: true });
    // Act
    await send({ url: `${base}/hook?token=secret`, method: 'POST', headers: {}, body: '{}', timeoutMs: 2000 });
    await send({ url: `${base}/busy`, method: 'POST', headers: {}, timeoutMs: 2000 });
    // Assess
    const [down, busy] = await received(2);
    expect(down).toMatchObject({
      name: '127.0.0.1',
      namespace: 'remote',
      http: { request: { method: 'POST', url: `${base}/hook` }, response: { status: 503, content_length: 2 } },
      fault: true,
    });
    expect(down.error).toBeUndefined();
    expect(busy).toMatchObject({ throttle: true, error: true });
  });

  it('records a failed send as a remote error, and a refusal by the address guard as a local one', async () => {
    // Prepare
    inLambda();
    const open = createGuardedSender({ allowPrivate: true });
    const guarded = createGuardedSender({ allowPrivate: false });
    const closedPort = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const { port } = s.address() as AddressInfo;
        s.close(() => resolve(port));
      });
    });
    // Act
    const refused = await open({ url: `http://127.0.0.1:${closedPort}/`, method: 'GET', headers: {}, timeoutMs: 2000 }).catch((e: Error) => e);
    const blocked = await guarded({ url: 'http://169.254.169.254/latest/meta-data', method: 'GET', headers: {}, timeoutMs: 2000 }).catch(
      (e: Error) => e,
    );
    // Assess
    expect(refused).toBeInstanceOf(Error);
    expect(blocked).toBeInstanceOf(Error);
    const [a, b] = await received(2);
    expect(a).toMatchObject({ fault: true, cause: { exceptions: [{ message: 'connection error: ECONNREFUSED', remote: true }] } });
    expect(b).toMatchObject({ name: '169.254.169.254', cause: { exceptions: [{ message: expect.stringMatching(/^blocked: /) }] } });
    expect((b.cause as { exceptions: { remote?: boolean }[] }).exceptions[0].remote).toBeUndefined();
  });
});
