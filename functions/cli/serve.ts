// `rts serve` / `npm start`: the whole service on one machine, printing its URL, project id and API key.
import { parseArgs } from 'node:util';
import { recordService } from '../local/data-lock';
import { startLocalService } from '../local/server';

const USAGE = `Usage: rts serve [--host 127.0.0.1] [--port 8787] [--data-dir .rts] [--in-memory]

Starts the whole service on this machine (the API, the embedded store, the replay workers, webhook
delivery and the dashboard) and prints its URL, project id and API key (also written to
<data-dir>/credentials.json). One service per data folder.

Environment: RTS_HOST, RTS_PORT, RTS_DATA_DIR, RTS_IN_MEMORY=true, RTS_BOOTSTRAP_PROJECT_ID,
RTS_BOOTSTRAP_API_KEY, RTS_ACCESS_LOG=false (no request lines).
`;

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
      if (stopping) return;
      stopping = true;
      process.stdout.write('\nstopping...\n');
      unrecord();
      void service.close().then(resolve);
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  return 0;
}
