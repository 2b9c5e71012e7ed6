// `rts serve` / `npm start`: the whole service on one machine, printing its URL, project id and API key.
import { parseArgs } from 'node:util';
import { recordService } from '../local/data-lock';
import { startLocalService } from '../local/server';

const USAGE = `Usage: rts serve [--host 127.0.0.1] [--port 8787] [--data-dir .rts] [--in-memory]

Starts the whole service on this machine (the API, the embedded store, the replay workers, webhook
delivery and the dashboard) and prints its URL, project id and API key (also written to
<data-dir>/credentials.json). One service per data folder.

Environment: RTS_HOST, RTS_PORT, RTS_DATA_DIR, RTS_IN_MEMORY=true, RTS_BOOTSTRAP_PROJECT_ID,
RTS_BOOTSTRAP_API_KEY, RTS_ACCESS_LOG=false (no request lines), RTS_WORKER_CONCURRENCY,
RTS_RUN_DEADLINE_MS (the most time one run may hold a worker; default 900000).

Ctrl-C stops it within a few seconds: runs in flight are abandoned and resumed at the next start.
`;

/**
 * How long a stop waits for the runs in flight before abandoning them (they are resumed at the next start, as after a
 * crash), and the most a stop may take in all.
 */
export const SHUTDOWN_GRACE_MS = 1000;
export const SHUTDOWN_LIMIT_MS = 5000;

export async function runServe(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      host: { type: 'string' },
      port: { type: 'string' },
      'data-dir': { type: 'string' },
      'in-memory': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const inMemory = values['in-memory'] === true || process.env.RTS_IN_MEMORY === 'true';
  const service = await startLocalService({
    host: values.host,
    port: values.port !== undefined ? Number(values.port) : undefined,
    dataDir: values['data-dir'],
    inMemory: values['in-memory'] ? true : undefined,
    storeInChildProcess: true,
    preloadHandlers: true,
    gateway: {
      onRequest:
        process.env.RTS_ACCESS_LOG === 'false'
          ? undefined
          : ({ method, path, status, ms }) => {
              process.stdout.write(`${new Date().toISOString()} ${method} ${path} ${status} ${ms.toFixed(1)}ms\n`);
            },
    },
  });
  // So that `rts admin` run from another folder finds this service's store instead of opening a second one.
  const unrecord = recordService({
    pid: process.pid,
    url: service.url,
    data_dir: service.dataDir,
    store_endpoint: service.dynamodbEndpoint,
    store_secret: service.storeSecret,
    table: service.tableName,
    in_memory: inMemory,
    started_at: new Date().toISOString(),
  });
  process.once('exit', unrecord);
  process.stdout.write(
    [
      '',
      `rts is running at ${service.url}`,
      '',
      `  base URL     ${service.url}`,
      `  project id   ${service.projectId}`,
      `  API key      ${service.apiKey}`,
      `  dashboard    ${service.url}/dashboard`,
      `  OpenAPI      ${service.url}/v1/openapi.json`,
      `  data         ${service.dataDir}${inMemory ? ' (in memory)' : ''}`,
      '',
      `Credentials written to ${service.dataDir}/credentials.json. Press Ctrl-C to stop.`,
      '',
    ].join('\n'),
  );
  await new Promise<void>((resolve) => {
    let stopping = false;
    const stop = () => {
      if (stopping) {
        // A second Ctrl-C: stop at once; the next start recovers as after a crash.
        process.stdout.write('stopped without waiting\n');
        process.exit(130);
      }
      stopping = true;
      process.stdout.write('\nstopping...\n');
      unrecord();
      // Whatever the close is waiting on (a store or a webhook endpoint that hangs), the process ends in bounded time.
      setTimeout(() => {
        process.stdout.write(`not stopped after ${SHUTDOWN_LIMIT_MS} ms; exiting anyway\n`);
        process.exit(1);
      }, SHUTDOWN_LIMIT_MS).unref();
      service.close({ abandonAfterMs: SHUTDOWN_GRACE_MS }).then(resolve, (err: unknown) => {
        process.stderr.write(`rts: stopping failed: ${(err as Error).message ?? String(err)}\n`);
        resolve();
      });
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  // Runs abandoned at the stop may still hold sockets to their agents (or timers): they must not keep the process up.
  setTimeout(() => process.exit(), 100).unref();
  return 0;
}
