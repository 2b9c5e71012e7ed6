// X-Ray wiring: off (and the X-Ray SDK never loaded) outside Lambda; in Lambda, AWS clients captured and one remote
// subsegment per guarded send. The Powertools Tracer is replaced by a recording fake: loading the real X-Ray SDK would
// install its async hook in this jest worker for every later test file.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SQSClient } from '@aws-sdk/client-sqs';
import { resetAwsClients, sqsClient } from '../../../functions/adapters/aws';
import { createGuardedSender } from '../../../functions/adapters/http/guarded-sender';
import { getTracer, resetTracer, tracingWanted } from '../../../functions/wiring/tracer';
import '../../../functions/wiring/with-tracing';

interface FakeSubsegment {
  name: string;
  attributes: Record<string, unknown>;
  flags: string[];
  errors: { message: string; remote: boolean }[];
  closed: boolean;
}

const mockTracing = { loaded: false, options: [] as unknown[], captured: [] as unknown[], subsegments: [] as FakeSubsegment[] };

jest.mock('@aws-lambda-powertools/tracer', () => {
  mockTracing.loaded = true;
  const segment = {
    addNewSubsegment(name: string) {
      const sub: FakeSubsegment = { name, attributes: {}, flags: [], errors: [], closed: false };
      mockTracing.subsegments.push(sub);
      return {
        addAttribute: (k: string, v: unknown) => void (sub.attributes[k] = v),
        addThrottleFlag: () => void sub.flags.push('throttle'),
        addErrorFlag: () => void sub.flags.push('error'),
        addFaultFlag: () => void sub.flags.push('fault'),
        addError: (err: Error, remote: boolean) => void sub.errors.push({ message: err.message, remote }),
        close: () => void (sub.closed = true),
      };
    },
  };
  return {
    Tracer: class {
      constructor(options: unknown) {
        mockTracing.options.push(options);
      }
      isTracingEnabled = () => true;
      captureAWSv3Client = <C>(client: C): C => {
        mockTracing.captured.push(client);
        return client;
      };
      getSegment = () => segment;
    },
  };
});

const LAMBDA_ENV = { AWS_LAMBDA_FUNCTION_NAME: 'rts-replay-worker', AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x' };
const KEYS = ['AWS_LAMBDA_FUNCTION_NAME', 'AWS_EXECUTION_ENV', 'AWS_SAM_LOCAL', 'POWERTOOLS_TRACE_ENABLED'] as const;
const saved = Object.fromEntries(KEYS.map((k) => [k, process.env[k]]));

function setEnv(env: Partial<Record<(typeof KEYS)[number], string>>): void {
  for (const k of KEYS) delete process.env[k];
  Object.assign(process.env, env);
  resetTracer();
}

afterEach(() => {
  setEnv(Object.fromEntries(Object.entries(saved).filter(([, v]) => v !== undefined)) as Record<string, string>);
  resetAwsClients();
  mockTracing.captured = [];
  mockTracing.subsegments = [];
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

describe('outside Lambda', () => {
  it('with-tracing leaves clients and sends alone, and the X-Ray SDK is never loaded', async () => {
    // Prepare
    setEnv({});
    const send = createGuardedSender({ allowPrivate: true });
    // Act
    const client = sqsClient();
    const refused = await send({ url: 'http://127.0.0.1:1/', method: 'GET', headers: {}, timeoutMs: 1000 }).catch((e: Error) => e);
    // Assess
    expect(client).toBeInstanceOf(SQSClient);
    expect(refused).toBeInstanceOf(Error);
    expect(getTracer()).toBeNull();
    expect(mockTracing.captured).toEqual([]);
    expect(mockTracing.subsegments).toEqual([]);
    expect(mockTracing.loaded).toBe(false);
  });
});

describe('in Lambda with tracing (wiring/with-tracing)', () => {
  let server: Server;
  let base: string;

  beforeAll(async () => {
    server = createServer((req, res) => res.writeHead(req.url === '/busy' ? 429 : 503).end('no'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('captures each AWS client once, when it is built, with the service name', () => {
    // Prepare
    setEnv(LAMBDA_ENV);
    // Act
    const client = sqsClient();
    sqsClient();
    // Assess
    expect(mockTracing.captured).toEqual([client]);
    expect(mockTracing.options).toContainEqual({ serviceName: 'rts', captureHTTPsRequests: false });
  });

  it('wraps each guarded send in a closed remote subsegment named after the host, without the query', async () => {
    // Prepare
    setEnv(LAMBDA_ENV);
    const send = createGuardedSender({ allowPrivate: true });
    // Act
    await send({ url: `${base}/hook?token=secret`, method: 'POST', headers: {}, body: '{}', timeoutMs: 2000 });
    await send({ url: `${base}/busy`, method: 'POST', headers: {}, timeoutMs: 2000 });
    // Assess
    const [down, busy] = mockTracing.subsegments;
    expect(down).toEqual({
      name: '127.0.0.1',
      attributes: { namespace: 'remote', http: { request: { method: 'POST', url: `${base}/hook` }, response: { status: 503, content_length: 2 } } },
      flags: ['fault'],
      errors: [],
      closed: true,
    });
    expect(busy.flags).toEqual(['throttle']);
  });

  it('records a failed send as a remote error, and a refusal by the address guard as a local one', async () => {
    // Prepare
    setEnv(LAMBDA_ENV);
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
    const [a, b] = mockTracing.subsegments;
    expect(a.errors).toEqual([{ message: 'connection error: ECONNREFUSED', remote: true }]);
    expect(b).toMatchObject({ name: '169.254.169.254', errors: [{ message: expect.stringMatching(/^blocked: /), remote: false }], closed: true });
  });
});
