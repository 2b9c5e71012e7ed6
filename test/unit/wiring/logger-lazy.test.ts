// The service's logger builds Powertools' Logger at the first line written, not when its module loads
// (functions/wiring/logger.ts). Whenever that first line comes, every line must be the one the Logger built at init
// would have written: the same Lambda context, the same cold start, the event logged when configured to.
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { contextFor, logLinesOf } from '../../helpers/log-lines';

type LoggerModule = typeof import('../../../functions/wiring/logger');
type PowertoolsModule = typeof import('@aws-lambda-powertools/logger');
type MiddlewareModule = typeof import('@aws-lambda-powertools/logger/middleware');

const ENV = { AWS_LAMBDA_INITIALIZATION_TYPE: 'on-demand', POWERTOOLS_LOG_LEVEL: 'INFO', POWERTOOLS_SERVICE_NAME: 'rts-lazy' };
const saved = new Map<string, string | undefined>();

function setEnv(env: Record<string, string | undefined>): void {
  for (const [k, v] of Object.entries(env)) {
    if (!saved.has(k)) saved.set(k, process.env[k]);
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
}

afterEach(() => {
  for (const [k, v] of saved) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  saved.clear();
});

/** The JSON lines `fn` writes, without their timestamps. */
async function linesOf(fn: () => Promise<void>): Promise<Record<string, unknown>[]> {
  return (await logLinesOf(fn)).map(({ timestamp: _t, ...rest }) => rest);
}

/** Fresh modules (the logger's state is per module), with Powertools' Logger constructions counted. */
function fresh(): { ours: LoggerModule; powertools: PowertoolsModule; middleware: MiddlewareModule; built: () => number } {
  let constructed = 0;
  jest.resetModules();
  jest.doMock('@aws-lambda-powertools/logger', () => {
    const actual = jest.requireActual<PowertoolsModule>('@aws-lambda-powertools/logger');
    class CountedLogger extends actual.Logger {
      constructor(...args: ConstructorParameters<typeof actual.Logger>) {
        super(...args);
        constructed++;
      }
    }
    return { ...actual, Logger: CountedLogger };
  });
  /* eslint-disable @typescript-eslint/no-require-imports */
  const loaded = {
    ours: require('../../../functions/wiring/logger') as LoggerModule,
    powertools: jest.requireActual<PowertoolsModule>('@aws-lambda-powertools/logger'),
    middleware: require('@aws-lambda-powertools/logger/middleware') as MiddlewareModule,
  };
  /* eslint-enable @typescript-eslint/no-require-imports */
  return { ...loaded, built: () => constructed };
}

/** Three invocations of a middy handler that writes one line in invocation `at` (1-based), as the HTTP chain runs. */
async function chainLines(at: number, stock: boolean): Promise<{ lines: Record<string, unknown>[]; built: number[] }> {
  const m = fresh();
  const stockLogger = stock ? new m.powertools.Logger({ serviceName: 'rts-lazy' }) : undefined;
  const log = stockLogger ?? m.ours.logger;
  const handler = middy(async (_event: unknown, context: Context) => {
    if (context.awsRequestId === `req-${at}`) log.info('the line', { at });
  }).use(stockLogger ? m.middleware.injectLambdaContext(stockLogger) : m.ours.lambdaContext());
  const built: number[] = [];
  const lines = await linesOf(async () => {
    for (let i = 1; i <= 3; i++) {
      await handler({ n: i }, contextFor('rts-probe', `req-${i}`));
      built.push(m.built());
    }
  });
  return { lines, built };
}

/** The same with the context put by addLambdaContext, as the handlers outside the chain do. */
async function outsideLines(at: number, stock: boolean): Promise<Record<string, unknown>[]> {
  const m = fresh();
  const stockLogger = stock ? new m.powertools.Logger({ serviceName: 'rts-lazy' }) : undefined;
  return linesOf(async () => {
    for (let i = 1; i <= 3; i++) {
      if (stockLogger) stockLogger.addContext(contextFor('rts-probe', `req-${i}`));
      else m.ours.addLambdaContext(contextFor('rts-probe', `req-${i}`));
      if (i === at) (stockLogger ?? m.ours.logger).warn('the line', { at });
    }
  });
}

describe('the logger built at its first line', () => {
  beforeEach(() =>
    setEnv({ ...ENV, POWERTOOLS_LOGGER_LOG_EVENT: undefined, POWERTOOLS_LOGGER_SAMPLE_RATE: undefined, AWS_LAMBDA_MAX_CONCURRENCY: undefined }),
  );

  it('is not built by loading, nor by invocations that write nothing; the first line builds it once', async () => {
    const { built, lines } = await chainLines(2, false);

    expect(built).toEqual([0, 1, 1]);
    expect(lines).toHaveLength(1);
  });

  it.each([1, 2, 3])("writes in the HTTP chain, first in invocation %i, the lines of Powertools' own middleware", async (at) => {
    const ours = await chainLines(at, false);
    const stock = await chainLines(at, true);

    expect(ours.lines).toEqual(stock.lines);
    expect(ours.lines).toEqual([
      expect.objectContaining({ message: 'the line', at, cold_start: at === 1, function_request_id: `req-${at}`, function_name: 'rts-probe' }),
    ]);
  });

  it.each([1, 3])('writes outside the chain, first in invocation %i, the lines of a Logger given each context', async (at) => {
    const ours = await outsideLines(at, false);

    expect(ours).toEqual(await outsideLines(at, true));
    expect(ours).toEqual([expect.objectContaining({ level: 'WARN', cold_start: at === 1, function_request_id: `req-${at}` })]);
  });

  it('keeps cold start false when the environment was not started on demand (provisioned concurrency)', async () => {
    setEnv({ AWS_LAMBDA_INITIALIZATION_TYPE: 'provisioned-concurrency' });

    const ours = await chainLines(1, false);

    expect(ours.lines).toEqual((await chainLines(1, true)).lines);
    expect(ours.lines[0]).toMatchObject({ cold_start: false });
  });

  it.each([
    ['POWERTOOLS_LOGGER_LOG_EVENT', 'true'],
    ['POWERTOOLS_LOGGER_SAMPLE_RATE', '0.5'],
    ['AWS_LAMBDA_MAX_CONCURRENCY', '4'],
  ])('is built when its module loads under %s, where Powertools works on every invocation', (name, value) => {
    setEnv({ [name]: value });

    expect(fresh().built()).toBe(1);
  });

  it("logs each invocation's event under POWERTOOLS_LOGGER_LOG_EVENT, as Powertools' middleware does", async () => {
    setEnv({ POWERTOOLS_LOGGER_LOG_EVENT: 'true' });

    const ours = await chainLines(3, false);

    expect(ours.lines).toEqual((await chainLines(3, true)).lines);
    expect(ours.lines.map((l) => l.message)).toEqual(['Lambda invocation event', 'Lambda invocation event', 'Lambda invocation event', 'the line']);
    expect(ours.lines[0]).toMatchObject({ event: { n: 1 }, cold_start: true, function_request_id: 'req-1' });
  });
});
