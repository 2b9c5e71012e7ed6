// Local mode keeps the store to the user who runs it: the data folder and every file under it are private (0700
// folders, 0600 files), and the store answers only requests that carry the service's per-start secret, which only
// the data folder's owner can read (`rts admin` finds it there). Checked on `rts serve` as a process of its own.
import { spawn } from 'node:child_process';
import { chmodSync, lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { ScanCommand } from '@aws-sdk/client-dynamodb';
import { localDynamoClient } from '../../functions/local/store';
import { recordedCampaign, sampleTrace } from '../helpers/fixtures';
import { startServeProcess, type ServedProcess } from '../helpers/serve-process';

const ROOT = join(__dirname, '..', '..');

/** Every path under `dir` (itself included) whose permission bits are not 0700 (folder) or 0600 (file). */
function notPrivate(dir: string): string[] {
  const st = lstatSync(dir);
  const want = st.isDirectory() ? 0o700 : 0o600;
  const own = (st.mode & 0o777) === want || st.isSymbolicLink() ? [] : [`${dir} ${(st.mode & 0o777).toString(8)}`];
  return st.isDirectory() ? [...own, ...readdirSync(dir).flatMap((n) => notPrivate(join(dir, n)))] : own;
}

/** Every file under `dir`. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)]));
}

function rtsAdmin(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const { DYNAMODB_ENDPOINT, TABLE_NAME, RTS_STORE_SECRET, ...env } = process.env;
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'rts.js'), 'admin', ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr })));
}

async function storeRun(served: ServedProcess, creds: { project_id: string; api_key: string }): Promise<void> {
  const headers = { 'Content-Type': 'application/json', 'X-API-Key': creds.api_key, 'X-Project-Id': creds.project_id };
  const post = async (path: string, body: unknown): Promise<any> =>
    (await fetch(served.url + path, { method: 'POST', headers, body: JSON.stringify(body) })).json();
  const trace = await post('/v1/traces', sampleTrace());
  const campaign = await post('/v1/campaigns', recordedCampaign());
  const run = await post('/v1/runs', { trace_id: trace.trace_id, campaign_id: campaign.campaign_id });
  const deadline = Date.now() + 30_000;
  for (;;) {
    const got: any = await (await fetch(`${served.url}/v1/runs/${run.run_id}`, { headers })).json();
    if (got.status === 'completed') return;
    if (Date.now() > deadline) throw new Error(`run still ${got.status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('local mode: who can reach the store and the data folder', () => {
  let scratch: string;
  beforeEach(() => {
    scratch = mkdtempSync(join(tmpdir(), 'rts-private-'));
    chmodSync(scratch, 0o755);
  });
  afterEach(() => rmSync(scratch, { recursive: true, force: true }));

  it('creates the data folder 0700 and keeps every file under it 0600, with a run stored', async () => {
    // Prepare
    const dataDir = join(scratch, 'data');
    const served = await startServeProcess(dataDir);
    try {
      // Act
      const creds = JSON.parse(readFileSync(join(dataDir, 'credentials.json'), 'utf8'));
      await storeRun(served, creds);
      // Assess: while it runs (the store's files included), and after the stop
      // the store's LevelDB files are there to be checked
      expect(filesUnder(join(dataDir, 'store')).map((f) => basename(f))).toEqual(expect.arrayContaining(['CURRENT', 'LOCK']));
      expect(notPrivate(dataDir)).toEqual([]);
    } finally {
      await served.stop();
    }
    expect(notPrivate(dataDir)).toEqual([]);
  }, 120_000);

  it('tightens a data folder left readable by others, says so, and leaves files that are not its own alone', async () => {
    // Prepare: a folder of an earlier start, opened up to everyone, and a file of the user's beside the data
    const dataDir = join(scratch, 'data');
    const first = await startServeProcess(dataDir);
    await first.stop();
    for (const path of [dataDir, ...readdirSync(dataDir).map((n) => join(dataDir, n))])
      chmodSync(path, lstatSync(path).isDirectory() ? 0o755 : 0o644);
    for (const file of filesUnder(join(dataDir, 'store'))) chmodSync(file, 0o644);
    writeFileSync(join(dataDir, 'notes.txt'), 'mine', { mode: 0o644 });
    chmodSync(join(dataDir, 'notes.txt'), 0o644);
    // Act
    const second = await startServeProcess(dataDir);
    await second.stop();
    // Assess
    expect(second.output()).toContain(`rts: ${dataDir} was readable by other users`);
    expect(notPrivate(dataDir)).toEqual([`${join(dataDir, 'notes.txt')} 644`]);
  }, 120_000);

  it('refuses every store request without the service secret, and rts admin still reaches the store', async () => {
    // Prepare
    const dataDir = join(scratch, 'data');
    const served = await startServeProcess(dataDir);
    try {
      const creds = JSON.parse(readFileSync(join(dataDir, 'credentials.json'), 'utf8'));
      const info = JSON.parse(readFileSync(join(dataDir, 'store.json'), 'utf8'));
      // Act: what any local user could send to the loopback port: a signed Scan, and a bare one
      const signed = await localDynamoClient(info.endpoint)
        .send(new ScanCommand({ TableName: info.table }))
        .then(
          () => 'answered',
          (err: Error & { $metadata?: { httpStatusCode?: number } }) => `${err.$metadata?.httpStatusCode} ${err.name}`,
        );
      const bare = await fetch(info.endpoint, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-amz-json-1.0', 'X-Amz-Target': 'DynamoDB_20120810.Scan' },
        body: JSON.stringify({ TableName: info.table }),
      });
      const withSecret = await localDynamoClient(info.endpoint, info.secret).send(new ScanCommand({ TableName: info.table, Limit: 1 }));
      const admin = await rtsAdmin(['create-key', '--project', creds.project_id, '--data-dir', dataDir]);
      // Assess
      expect(signed).toBe('403 UnrecognizedClientException');
      expect(bare.status).toBe(403);
      expect(withSecret.Count).toBe(1);
      expect([admin.code, admin.stderr]).toEqual([0, '']);
      const key = JSON.parse(admin.stdout).api_key;
      const listed = await fetch(`${served.url}/v1/traces`, { headers: { 'X-API-Key': key, 'X-Project-Id': creds.project_id } });
      expect(listed.status).toBe(200);
    } finally {
      await served.stop();
    }
  }, 120_000);
});
