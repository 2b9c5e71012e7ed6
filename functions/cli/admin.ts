// `rts admin`: projects and API keys, against the running local service's store or (with --table) a DynamoDB table in AWS.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createKey, createProject } from '../core/auth';
import { isUuid } from '../core/ids';
import { systemClock } from '../core/time';
import { DynamoProjectsRepo } from '../adapters/dynamodb/projects-repo';
import { resetAwsClients } from '../adapters/aws';
import { ensureTable, startEmbeddedStore, type EmbeddedStore } from '../local/store';

const USAGE = `Usage:
  rts admin create-project --name <name> [--table <TableName> [--region <region>]]
  rts admin create-key --project <project_id> [--table <TableName> [--region <region>]]
  rts admin revoke-key --project <project_id> --key-id <key_id> [--table <TableName> [--region <region>]]

Without --table the command uses the local service's store (its data folder: --data-dir, RTS_DATA_DIR or .rts).
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

/** Points the DynamoDB client at the right table: AWS with --table, else the local store (running or opened here). */
async function connect(values: { table?: string; region?: string; 'data-dir'?: string }): Promise<EmbeddedStore | undefined> {
  if (values.table) {
    delete process.env.DYNAMODB_ENDPOINT;
    process.env.TABLE_NAME = values.table;
    if (values.region) process.env.AWS_REGION = values.region;
    resetAwsClients();
    return undefined;
  }
  const dataDir = resolve(values['data-dir'] ?? process.env.RTS_DATA_DIR ?? '.rts');
  let info: { endpoint: string | null; table: string } | undefined;
  try {
    info = JSON.parse(readFileSync(join(dataDir, 'store.json'), 'utf8'));
  } catch {
    info = undefined;
  }
  process.env.TABLE_NAME = info?.table ?? 'rts-local';
  let store: EmbeddedStore | undefined;
  if (info?.endpoint && (await reachable(info.endpoint))) {
    process.env.DYNAMODB_ENDPOINT = info.endpoint;
  } else {
    // The service is not running: open its persisted store directly.
    store = await startEmbeddedStore({ path: join(dataDir, 'store') });
    await ensureTable(store.endpoint, process.env.TABLE_NAME);
    process.env.DYNAMODB_ENDPOINT = store.endpoint;
  }
  process.env.AWS_REGION ??= 'local';
  resetAwsClients();
  return store;
}

export async function runAdmin(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
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

  const store = await connect(values);
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
