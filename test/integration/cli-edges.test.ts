// The CLI's small edges, as real processes (node bin/rts.js): --version, --help, a malformed RTS_API_URL, a refused
// connection, and `rts admin` next to a running `rts serve` on another data folder (it finds that service's store or
// refuses, never silently opening a second store whose keys the service would refuse).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { recordService, runningServices } from '../../functions/local/data-lock';
import { checkBaseUrl, networkError } from '../../packages/sdk/src/errors';
import { closedPort } from '../helpers/ci';
import { runProcess } from '../helpers/doc-commands';

const ROOT = join(__dirname, '..', '..');
const RTS = join(ROOT, 'bin', 'rts.js');
const SAMPLE = join(ROOT, 'samples', 'traces', 'refund-order.json');
const CAMPAIGN = '0b9f7a52-8c1e-4d2f-9a3b-5c6d7e8f9a0b';

let scratch: string;
let runtimeDir: string;
beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'rts-cli-edges-'));
  // Service records of this test only: other `rts serve` processes of this user (other suites) stay out of sight.
  runtimeDir = join(scratch, 'runtime');
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** This process's environment without the service settings of in-process tests, plus `env`. */
function cleanEnv(env: Record<string, string> = {}): NodeJS.ProcessEnv {
  const inherited = { ...process.env };
  for (const k of Object.keys(inherited)) if (/^(RTS_|DYNAMODB_ENDPOINT$|TABLE_NAME$|GITHUB_|CI_)/.test(k)) delete inherited[k];
  return { ...inherited, RTS_RUNTIME_DIR: runtimeDir, RTS_ACCESS_LOG: 'false', POWERTOOLS_LOG_LEVEL: 'ERROR', ...env };
}

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

async function rts(args: string[], opts: { cwd?: string; env?: Record<string, string> } = {}): Promise<Ran> {
  const { code, out, err } = await runProcess(process.execPath, [RTS, ...args], cleanEnv(opts.env), opts.cwd ?? ROOT);
  return { code, stdout: out, stderr: err };
}

const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

describe('rts --version and --help (processes)', () => {
  it('prints the version with --version and -V, and usage with exit 0 for commands that used to refuse --help', async () => {
    const [long, short, admin, traces] = await Promise.all([rts(['--version']), rts(['-V']), rts(['admin', '--help']), rts(['traces', '--help'])]);
    expect([long.code, long.stdout]).toEqual([0, `${VERSION}\n`]);
    expect([short.code, short.stdout]).toEqual([0, `${VERSION}\n`]);
    expect([admin.code, admin.stderr]).toEqual([0, '']);
    expect(admin.stdout).toContain('rts admin create-project --name <name>');
    expect([traces.code, traces.stderr]).toEqual([0, '']);
    expect(traces.stdout).toContain('Usage: rts traces upload <file...>');
  });
});

describe('RTS_API_URL and the network', () => {
  const creds = { RTS_API_KEY: `rts_${'A'.repeat(40)}`, RTS_PROJECT_ID: CAMPAIGN };

  it('names RTS_API_URL and exits 2 when it is not an absolute http(s) URL (traces upload, ci run)', async () => {
    const env = { ...creds, RTS_API_URL: 'localhost:8787' };
    const [traces, ci] = await Promise.all([rts(['traces', 'upload', SAMPLE], { env }), rts(['ci', 'run', '--campaign', CAMPAIGN], { env })]);
    expect([traces.code, traces.stderr]).toEqual([
      2,
      'rts: RTS_API_URL is not an absolute http(s) URL: "localhost:8787" (expected e.g. http://127.0.0.1:8787)\n',
    ]);
    expect([ci.code, ci.stderr]).toEqual([
      2,
      'rts ci: RTS_API_URL is not an absolute http(s) URL: "localhost:8787" (expected e.g. http://127.0.0.1:8787)\n',
    ]);
  });

  it('checks the base URL before any request: scheme, host, credentials, query', () => {
    expect(checkBaseUrl('http://127.0.0.1:8787/', 'RTS_API_URL')).toBe('http://127.0.0.1:8787');
    expect(checkBaseUrl('https://abc.execute-api.eu-west-1.amazonaws.com/prod/', 'RTS_API_URL')).toBe(
      'https://abc.execute-api.eu-west-1.amazonaws.com/prod',
    );
    for (const bad of ['', '127.0.0.1:8787', 'ftp://host', 'http://', '/v1', 'http://127.0.0.1:99999'])
      expect(() => checkBaseUrl(bad, 'RTS_API_URL')).toThrow(`RTS_API_URL is not an absolute http(s) URL: ${JSON.stringify(bad)}`);
    expect(() => checkBaseUrl('https://me:s3cret@host', 'RTS_API_URL')).toThrow(/must not carry a user name or password: "https:\/\/\*\*\*@host\/"/);
    expect(() => checkBaseUrl('https://me:s3cret@host', 'RTS_API_URL')).not.toThrow(/s3cret/);
    expect(() => checkBaseUrl('http://host/?x=1', 'baseUrl')).toThrow('baseUrl must not carry a query or a fragment');
  });

  it('says ECONNREFUSED and the address when nothing listens (traces upload exits 1, ci run exits 2)', async () => {
    const port = await closedPort();
    const env = { ...creds, RTS_API_URL: `http://127.0.0.1:${port}` };
    const [traces, ci] = await Promise.all([
      rts(['traces', 'upload', SAMPLE], { env }),
      rts(['ci', 'run', '--campaign', CAMPAIGN, '--json'], { env }),
    ]);
    const said = `request to http://127.0.0.1:${port} failed: connect ECONNREFUSED 127.0.0.1:${port} (nothing accepts connections there`;
    expect(traces.code).toBe(1);
    expect(traces.stderr).toContain(`${SAMPLE}: ${said}`);
    expect(ci.code).toBe(2);
    expect(ci.stderr).toContain(`rts ci: network_error: ${said}`);
    expect(JSON.parse(ci.stdout).error).toMatchObject({ status: 0, code: 'network_error', message: expect.stringContaining('ECONNREFUSED') });
    expect(`${traces.stderr}${ci.stderr}`).not.toContain('fetch failed');
  });

  it('names every address of a dual-stack refusal, a DNS failure and a timeout', () => {
    const url = new URL('http://localhost:8787/v1/traces');
    const refused = (address: string) =>
      Object.assign(new Error(`connect ECONNREFUSED ${address}:8787`), { code: 'ECONNREFUSED', address, port: 8787 });
    const both = Object.assign(new AggregateError([refused('::1'), refused('127.0.0.1')], ''), { code: 'ECONNREFUSED' });
    expect(networkError(url, Object.assign(new TypeError('fetch failed'), { cause: both }), 30_000).message).toBe(
      'request to http://localhost:8787 failed: ECONNREFUSED [::1]:8787, 127.0.0.1:8787 (nothing accepts connections there: is the service running, and is the URL right?)',
    );
    const dns = Object.assign(new Error('getaddrinfo ENOTFOUND rts.invalid'), { code: 'ENOTFOUND', hostname: 'rts.invalid' });
    const err = networkError(new URL('https://rts.invalid'), Object.assign(new TypeError('fetch failed'), { cause: dns }), 30_000);
    expect([err.status, err.code, err.message]).toEqual([
      0,
      'network_error',
      'request to https://rts.invalid failed: getaddrinfo ENOTFOUND rts.invalid (the host name does not resolve)',
    ]);
    expect(err.cause).toBeInstanceOf(TypeError);
    const timeout = Object.assign(new Error('The operation was aborted due to timeout'), { name: 'TimeoutError' });
    expect(networkError(url, timeout, 5000).message).toBe('request to http://localhost:8787 failed: no answer within 5000 ms');
  });
});

describe('rts admin next to a running rts serve', () => {
  let served: ChildProcess;
  let exited: Promise<unknown>;
  let serviceDir: string;
  let url: string;

  beforeAll(async () => {
    serviceDir = join(scratch, 'service-data');
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((r) => probe.close(() => r()));
    url = `http://127.0.0.1:${port}`;
    served = spawn(process.execPath, [RTS, 'serve', '--port', String(port), '--data-dir', serviceDir], {
      cwd: ROOT,
      env: cleanEnv(),
      stdio: 'ignore',
    });
    exited = new Promise((r) => served.once('exit', r));
    for (let deadline = Date.now() + 60_000; ;) {
      const ok = await fetch(`${url}/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      if (Date.now() > deadline || served.exitCode !== null) throw new Error('rts serve did not start');
      await new Promise((r) => setTimeout(r, 100));
    }
  }, 70_000);
  afterAll(async () => {
    if (served.exitCode === null) served.kill('SIGTERM');
    await exited;
  });

  /** Whether the service accepts this project's key. */
  async function accepted(project: { project_id: string; api_key: string }): Promise<number> {
    return (await fetch(`${url}/v1/traces`, { headers: { 'X-API-Key': project.api_key, 'X-Project-Id': project.project_id } })).status;
  }

  it("uses the running service's store from a folder without one, and says so", async () => {
    const cwd = join(scratch, 'elsewhere');
    mkdirSync(cwd);
    const res = await rts(['admin', 'create-project', '--name', 'team-a'], { cwd });
    expect(res.code).toBe(0);
    expect(res.stderr).toBe(`rts admin: using the store of the rts serve running at ${url} (pid ${served.pid}, data folder ${serviceDir})\n`);
    expect(await accepted(JSON.parse(res.stdout))).toBe(200);
    expect(existsSync(join(cwd, '.rts'))).toBe(false);
  }, 30_000);

  it('refuses, naming the folder in use, when the default folder holds a stopped store or a named one holds none', async () => {
    // Prepare: a folder whose .rts holds a store of its own (no service runs on it).
    const cwd = join(scratch, 'stale');
    mkdirSync(join(cwd, '.rts', 'store'), { recursive: true });
    const fresh = join(scratch, 'fresh');
    // Act
    const [stale, named] = await Promise.all([
      rts(['admin', 'create-project', '--name', 'team-b'], { cwd }),
      rts(['admin', 'create-key', '--project', CAMPAIGN, '--data-dir', fresh], { cwd }),
    ]);
    // Assess
    expect([stale.code, stale.stdout]).toEqual([2, '']);
    expect(stale.stderr).toContain(`no rts serve uses the default data folder ${join(cwd, '.rts')} (neither --data-dir nor RTS_DATA_DIR is set)`);
    expect(stale.stderr).toContain(`  ${url} (pid ${served.pid}): data folder ${serviceDir}\n`);
    expect(stale.stderr).toContain(`--data-dir ${serviceDir} (or RTS_DATA_DIR=${serviceDir})`);
    expect([named.code, named.stdout]).toEqual([2, '']);
    expect(named.stderr).toContain(`no rts serve uses the data folder ${fresh}, which holds no store`);
    expect(named.stderr).toContain(`--data-dir ${serviceDir}`);
    expect(existsSync(fresh)).toBe(false);
  }, 30_000);

  it('writes through the service when pointed at its folder with RTS_DATA_DIR', async () => {
    const res = await rts(['admin', 'create-project', '--name', 'team-c'], { cwd: scratch, env: { RTS_DATA_DIR: serviceDir } });
    expect([res.code, res.stderr]).toEqual([0, '']);
    expect(await accepted(JSON.parse(res.stdout))).toBe(200);
  }, 30_000);

  it('removes its record when it stops; records of dead processes are dropped', async () => {
    const env = { ...process.env, RTS_RUNTIME_DIR: runtimeDir };
    expect(runningServices(env).map((r) => [r.pid, r.url, r.data_dir])).toEqual([[served.pid, url, serviceDir]]);
    const dead = await new Promise<number>((resolve) => {
      const child = spawn(process.execPath, ['-e', '']);
      child.once('exit', () => resolve(child.pid!));
    });
    recordService(
      { pid: dead, url: 'http://127.0.0.1:1', data_dir: '/gone', store_endpoint: 'http://127.0.0.1:1', table: 't', in_memory: false, started_at: '' },
      env,
    );
    writeFileSync(join(runtimeDir, 'serve-1.json'), '{"half');
    expect(runningServices(env).map((r) => r.pid)).toEqual([served.pid]);
    expect(readdirSync(runtimeDir)).toEqual([`serve-${served.pid}.json`]);

    served.kill('SIGTERM');
    await exited;
    expect(readdirSync(runtimeDir)).toEqual([]);
  }, 30_000);
});
