// Parity run: the suites that use the store, once more against the official DynamoDB Local instead of dynalite.
//
//   npm run test:parity [-- <jest args>]    e.g. npm run test:parity -- test/integration/ci.test.ts
//
// DynamoDB Local is a Java program; its jar ships inside the `amplify-dynamodb-simulator` npm package. It is not a
// dependency of this project: the package is fetched at run time with `npm pack` into node_modules/.cache and only its
// emulator/ folder is kept. Needs `java` (17 works; on Debian: apt-get install -y default-jre-headless) and `tar`.
// Environment: RTS_PARITY_SIMULATOR_VERSION (package version, default below), RTS_PARITY_CACHE (cache folder),
// JAVA (the java binary), RTS_TEST_DYNAMODB_ENDPOINT (an already running store: nothing is fetched or started).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..');
/** amplify-dynamodb-simulator 2.9.30 carries DynamoDB Local 1.25.1. */
const SIMULATOR_VERSION = process.env.RTS_PARITY_SIMULATOR_VERSION ?? '2.9.30';
const CACHE = resolve(process.env.RTS_PARITY_CACHE ?? join(ROOT, 'node_modules', '.cache', 'rts-dynamodb-local'));
/**
 * The suites that start a store: the service in-process (startTestService) or a bare table (startDynalite), and the
 * repositories' own tests, which hold each item format against the store.
 */
const DEFAULT_SUITES = ['test/integration', 'test/browser/dashboard.test.ts', 'test/unit/adapters/dynamodb'];
const JAVA = process.env.JAVA ?? (process.env.JAVA_HOME ? join(process.env.JAVA_HOME, 'bin', 'java') : 'java');

function log(msg: string): void {
  process.stderr.write(`[parity] ${msg}\n`);
}

function run(cmd: string, args: string[], cwd: string): void {
  const res = spawnSync(cmd, args, { cwd, stdio: ['ignore', 'ignore', 'inherit'] });
  if (res.error) throw res.error;
  if (res.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited with ${res.status}`);
}

/** The emulator folder (DynamoDBLocal.jar + DynamoDBLocal_lib) of the pinned simulator version, fetched once. */
function ensureEmulator(): string {
  const dir = join(CACHE, SIMULATOR_VERSION);
  if (existsSync(join(dir, 'DynamoDBLocal.jar'))) return dir;
  mkdirSync(CACHE, { recursive: true });
  const scratch = mkdtempSync(join(CACHE, 'fetch-'));
  try {
    log(`fetching amplify-dynamodb-simulator@${SIMULATOR_VERSION} (about 55 MB) into ${CACHE}`);
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    run(
      npm,
      ['pack', `amplify-dynamodb-simulator@${SIMULATOR_VERSION}`, '--pack-destination', scratch, '--silent', '--no-audit', '--no-fund'],
      scratch,
    );
    const tarball = readdirSync(scratch).find((f) => f.endsWith('.tgz'));
    if (!tarball) throw new Error('npm pack produced no tarball');
    run('tar', ['-xzf', tarball, 'package/emulator'], scratch);
    rmSync(dir, { recursive: true, force: true });
    renameSync(join(scratch, 'package', 'emulator'), dir);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return dir;
}

function javaVersion(): string | undefined {
  const res = spawnSync(JAVA, ['-version'], { encoding: 'utf8' });
  if (res.error || res.status !== 0) return undefined;
  return (res.stderr || res.stdout).split('\n')[0];
}

async function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.once('error', rej);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => res(port));
    });
  });
}

async function waitUntilServing(endpoint: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  // Loaded here, after main() has silenced the SDK's Node-version notice (as jest-setup.ts does for the tests).
  const { ListTablesCommand } = await import('@aws-sdk/client-dynamodb');
  const { localDynamoClient } = await import('../../functions/local/store');
  const client = localDynamoClient(endpoint);
  const deadline = Date.now() + timeoutMs;
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`DynamoDB Local exited with code ${child.exitCode}`);
      try {
        await client.send(new ListTablesCommand({}));
        return;
      } catch (err) {
        if (Date.now() > deadline) throw new Error(`DynamoDB Local did not answer within ${timeoutMs} ms: ${(err as Error).message}`);
        await new Promise((r) => setTimeout(r, 200));
      }
    }
  } finally {
    client.destroy();
  }
}

/**
 * Starts DynamoDB Local in memory with one database for every credential and region (-sharedDb), on a free port.
 * It has no option to bind to one interface: it listens on all of them, for the length of the run.
 */
async function startDynamoDbLocal(emulator: string): Promise<{ endpoint: string; stop(): Promise<void> }> {
  const port = await freePort();
  const child = spawn(
    JAVA,
    [
      '-Xmx1g',
      `-Djava.library.path=${join(emulator, 'DynamoDBLocal_lib')}`,
      '-jar',
      join(emulator, 'DynamoDBLocal.jar'),
      '-inMemory',
      '-sharedDb',
      '-disableTelemetry',
      '-port',
      String(port),
    ],
    { cwd: emulator, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const exited = new Promise<void>((res) => child.once('exit', () => res()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  };
  const endpoint = `http://127.0.0.1:${port}`;
  try {
    await waitUntilServing(endpoint, child, 60_000);
  } catch (err) {
    await stop();
    throw err;
  }
  return { endpoint, stop };
}

function runJest(args: string[], endpoint: string): Promise<number> {
  const jestArgs = args.length ? args : DEFAULT_SUITES;
  log(`jest ${jestArgs.join(' ')} against ${endpoint}`);
  const child = spawn(process.execPath, [require.resolve('jest/bin/jest'), ...jestArgs], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, RTS_TEST_DYNAMODB_ENDPOINT: endpoint },
  });
  const forward = (sig: NodeJS.Signals) => child.kill(sig);
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  return new Promise((res) =>
    child.once('exit', (code, signal) => {
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      res(code ?? (signal ? 1 : 0));
    }),
  );
}

async function main(): Promise<number> {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const args = process.argv.slice(2);
  const given = process.env.RTS_TEST_DYNAMODB_ENDPOINT;
  if (given) return runJest(args, given);

  const version = javaVersion();
  if (!version) {
    log(`no Java runtime (${JAVA}); DynamoDB Local needs one: apt-get install -y default-jre-headless, or set JAVA / JAVA_HOME`);
    return 2;
  }
  const emulator = ensureEmulator();
  const started = Date.now();
  const store = await startDynamoDbLocal(emulator);
  log(`DynamoDB Local (${version}) on ${store.endpoint}, ready in ${Date.now() - started} ms`);
  try {
    return await runJest(args, store.endpoint);
  } finally {
    await store.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    log(`failed: ${(err as Error).stack ?? err}`);
    process.exit(1);
  },
);
