// `rts serve` / `npm start`: the whole service on one machine, printing its URL, project id and API key.
import { parseArgs } from 'node:util';
import { startLocalService } from '../local/server';

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
    process.stdout.write('Usage: rts serve [--host 127.0.0.1] [--port 8787] [--data-dir .rts] [--in-memory]\n');
    return 0;
  }
  const service = await startLocalService({
    host: values.host,
    port: values.port !== undefined ? Number(values.port) : undefined,
    dataDir: values['data-dir'],
    inMemory: values['in-memory'] ? true : undefined,
    storeInChildProcess: true,
    gateway: {
      onRequest:
        process.env.RTS_ACCESS_LOG === 'false'
          ? undefined
          : ({ method, path, status, ms }) => {
              process.stdout.write(`${new Date().toISOString()} ${method} ${path} ${status} ${ms.toFixed(1)}ms\n`);
            },
    },
  });
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
      `  data         ${service.dataDir}${process.env.RTS_IN_MEMORY === 'true' ? ' (in memory)' : ''}`,
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
      void service.close().then(resolve);
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  return 0;
}
