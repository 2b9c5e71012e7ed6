// `rts admin`: projects and API keys, against the running local service's store or (with --table) a DynamoDB table in AWS.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createKey, createProject } from '../core/auth';
import { isUuid } from '../core/ids';
import { systemClock } from '../core/time';
import { DynamoProjectsRepo } from '../adapters/dynamodb/projects-repo';
import { resetAwsClients } from '../adapters/aws';
import { STORE_SECRET_ENV } from '../adapters/dynamodb/client';
import { runningServices, type ServiceRecord } from '../local/data-lock';
import { makeDataDirPrivate, privateUmask } from '../local/private-files';
import { ensureTable, startEmbeddedStore, type EmbeddedStore } from '../local/store';

const USAGE = `Usage:
  rts admin create-project --name <name> [--data-dir <folder> | --table <TableName> [--region <region>]]
  rts admin create-key --project <project_id> [--data-dir <folder> | --table <TableName> [--region <region>]]
  rts admin revoke-key --project <project_id> --key-id <key_id> [--data-dir <folder> | --table <TableName> [--region <region>]]

Without --table the command uses the local store: that of the rts serve running on the data folder
(--data-dir <folder>, RTS_DATA_DIR, else .rts), or the folder's store opened directly when no service
runs. With no folder named and no store in .rts, the one rts serve running elsewhere is used; when
that would be ambiguous, or would write keys a running service never sees, the command refuses and
says which data folder is in use.
Output is JSON on stdout.
`;

async function reachable(endpoint: string): Promise<boolean> {
  try {
    const res = await fetch(endpoint, { method: 'GET', signal: AbortSignal.timeout(1000) });
    return res.status > 0;
  } catch {
    return false;
  }
}

function readJson<T>(path: string): T | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as T;
  } catch {
    return undefined;
  }
}

/** A refusal that is not a usage error: said on stderr without the usage text, exit 2. */
class Refusal extends Error {}

/** Points the DynamoDB client at a local store; `secret` is the embedded store's, without which it refuses every request. */
function useStore(endpoint: string, table: string, secret: string | undefined): void {
  process.env.DYNAMODB_ENDPOINT = endpoint;
  if (secret) process.env[STORE_SECRET_ENV] = secret;
  else delete process.env[STORE_SECRET_ENV];
  process.env.TABLE_NAME = table;
}

const describeServices = (services: ServiceRecord[]) =>
  services.map((s) => `  ${s.url} (pid ${s.pid}): data folder ${s.data_dir}${s.in_memory ? ' (store in memory)' : ''}\n`).join('');

/**
 * The local store to use: the one of the service running on the data folder (--data-dir, RTS_DATA_DIR, else .rts);
 * with no folder named, the store of the one `rts serve` running elsewhere when .rts holds no store; the folder's
 * store opened here when no service runs at all. Refuses instead of creating a store that a running service would
 * not read (its keys would be refused), and when the folder to use is ambiguous.
 */
async function connectLocal(values: { 'data-dir'?: string }): Promise<EmbeddedStore | undefined> {
  const given = values['data-dir'] ?? process.env.RTS_DATA_DIR;
  const dataDir = resolve(given ?? '.rts');
  const info = readJson<{ endpoint: string | null; table: string; secret?: string }>(join(dataDir, 'store.json'));
  if (info?.endpoint && (await reachable(info.endpoint))) {
    useStore(info.endpoint, info.table, info.secret);
    return undefined;
  }
  const records = runningServices().filter((r) => resolve(r.data_dir) !== dataDir);
  const live = (await Promise.all(records.map(async (r) => ((await reachable(r.store_endpoint)) ? r : undefined)))).filter(
    (r): r is ServiceRecord => !!r,
  );
  const hasStore = existsSync(join(dataDir, 'store'));
  if (live.length) {
    if (!given && !hasStore && live.length === 1) {
      const s = live[0];
      process.stderr.write(`rts admin: using the store of the rts serve running at ${s.url} (pid ${s.pid}, data folder ${s.data_dir})\n`);
      useStore(s.store_endpoint, s.table, s.store_secret);
      return undefined;
    }
    const folder = given ? `the data folder ${dataDir}` : `the default data folder ${dataDir} (neither --data-dir nor RTS_DATA_DIR is set)`;
    const running = `${live.length === 1 ? 'rts serve is' : `${live.length} rts serve processes are`} running on another data folder:\n${describeServices(live)}`;
    const point = live.length === 1 ? live[0].data_dir : '<one of these folders>';
    throw new Refusal(
      `no rts serve uses ${folder}, ${hasStore ? 'which holds a stopped store' : 'which holds no store'}, but ${running}` +
        `A project or key written ${hasStore ? 'to that stopped store' : 'to a new store there'} would be refused by ${live.length === 1 ? 'that service' : 'those services'}.\n` +
        `To use a running service's store: --data-dir ${point} (or RTS_DATA_DIR=${point}).\n` +
        (hasStore
          ? `To write to the stopped store anyway: --data-dir ${dataDir}.\n`
          : `To give ${dataDir} a service of its own first: rts serve --data-dir ${dataDir}.\n`),
    );
  }
  // No service is running: open the folder's persisted store directly, its files as private as the service keeps them.
  const restoreUmask = privateUmask();
  let store: EmbeddedStore;
  try {
    makeDataDirPrivate(dataDir);
    store = await startEmbeddedStore({ path: join(dataDir, 'store') });
  } catch (err) {
    restoreUmask();
    throw err;
  }
  await ensureTable(store.endpoint, info?.table ?? 'rts-local', store.secret);
  useStore(store.endpoint, info?.table ?? 'rts-local', store.secret);
  return { ...store, close: () => store.close().finally(restoreUmask) };
}

/** Points the DynamoDB client at the right table: AWS with --table, else the local store (see connectLocal). */
async function connect(values: { table?: string; region?: string; 'data-dir'?: string }): Promise<EmbeddedStore | undefined> {
  if (values.table) {
    delete process.env.DYNAMODB_ENDPOINT;
    delete process.env[STORE_SECRET_ENV];
    process.env.TABLE_NAME = values.table;
    if (values.region) process.env.AWS_REGION = values.region;
    resetAwsClients();
    return undefined;
  }
  const store = await connectLocal(values);
  process.env.AWS_REGION ??= 'local';
  resetAwsClients();
  return store;
}

export async function runAdmin(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === '--help' || sub === '-h' || sub === 'help') {
    process.stdout.write(USAGE);
    return 0;
  }
  const { values } = parseArgs({
    args: rest,
    options: {
      name: { type: 'string' },
      project: { type: 'string' },
      'key-id': { type: 'string' },
      table: { type: 'string' },
      region: { type: 'string' },
      'data-dir': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help || !sub || !['create-project', 'create-key', 'revoke-key'].includes(sub)) {
    (values.help ? process.stdout : process.stderr).write(USAGE);
    return values.help ? 0 : 2;
  }
  if (sub === 'create-project' && !values.name) return usageError('--name is required');
  if (sub !== 'create-project' && !isUuid(values.project)) return usageError('--project <project_id> (a UUID) is required');
  if (sub === 'revoke-key' && !values['key-id']) return usageError('--key-id is required');

  let store: EmbeddedStore | undefined;
  try {
    store = await connect(values);
  } catch (err) {
    if (!(err instanceof Refusal)) throw err;
    process.stderr.write(`rts admin: ${err.message}`);
    return 2;
  }
  try {
    const deps = { projects: new DynamoProjectsRepo(), clock: systemClock };
    let out: unknown;
    if (sub === 'create-project') {
      const p = await createProject(deps, { name: values.name! });
      out = { project_id: p.project_id, name: p.name, api_key: p.api_key, key_id: p.key_id, created_at: p.created_at };
    } else if (sub === 'create-key') {
      if (!(await deps.projects.getProject(values.project!))) return usageError(`project ${values.project} not found`, 1);
      const k = await createKey(deps, values.project!);
      out = { project_id: k.project_id, api_key: k.api_key, key_id: k.key_id, created_at: k.created_at };
    } else {
      const at = new Date().toISOString();
      const ok = await deps.projects.revokeApiKey(values.project!, values['key-id']!, at);
      if (!ok) return usageError(`key ${values['key-id']} not found in project ${values.project}`, 1);
      out = { project_id: values.project, key_id: values['key-id'], revoked_at: at };
    }
    process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
    return 0;
  } finally {
    if (store) await store.close();
  }
}

function usageError(message: string, code = 2): number {
  process.stderr.write(`rts admin: ${message}\n\n${USAGE}`);
  return code;
}
