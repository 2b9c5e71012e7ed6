// The first batch against the warm one for the stack alone: the SDK's document client sending a case's store calls to
// dynalite, no rts code in either process. Printed beside rts's own first / warm (peer.ts): what the dependencies'
// JIT warm-up costs on this machine, which rts's first batch pays too (docs/benchmarks.md#time-to-verdict-against-promptfoo).
import { spawn } from 'node:child_process';
import { REPO_ROOT } from '../../lib/constructs/bundling';
import { median } from './median';

/** Each case's calls: the kinds rts makes per case (a conditional create, a read, updates, a write, a query). */
export const CALLS_PER_CASE = 6;

export interface StackWarmup {
  cases: number;
  concurrency: number;
  /** Every round (fresh processes each): three batches of `cases`, ms. */
  rounds: number[][];
  /** The median of the rounds' first / second batch. */
  firstOverWarm: number;
}

// dynalite's HTTP server in a process of its own (rts runs its store in a child too); prints its port.
const STORE_SCRIPT = `
const dynalite = require(require.resolve('dynalite', { paths: [process.argv[1]] }));
const server = dynalite({ createTableMs: 0 });
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
`;

// The client: three batches of CASES cases, CONCURRENCY at a time; prints each batch's ms as JSON.
const CLIENT_SCRIPT = `
const [root, port, cases, concurrency] = process.argv.slice(1);
const load = (m) => require(require.resolve(m, { paths: [root] }));
const { DynamoDBClient, CreateTableCommand } = load('@aws-sdk/client-dynamodb');
const { DynamoDBDocumentClient, PutCommand, GetCommand, UpdateCommand, QueryCommand } = load('@aws-sdk/lib-dynamodb');
const raw = new DynamoDBClient({ endpoint: 'http://127.0.0.1:' + port, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
const doc = DynamoDBDocumentClient.from(raw, { marshallOptions: { removeUndefinedValues: true } });
const TableName = 'stack';
async function oneCase(batch, i) {
  const pk = 'run#' + batch + '#' + i;
  await doc.send(new PutCommand({ TableName, Item: { pk, sk: 'meta', status: 'queued', attempts: 0, spec: { mutations: ['none'], repeat: 1, note: 'x'.repeat(200) } }, ConditionExpression: 'attribute_not_exists(pk)' }));
  await doc.send(new GetCommand({ TableName, Key: { pk, sk: 'meta' } }));
  await doc.send(new UpdateCommand({ TableName, Key: { pk, sk: 'meta' }, UpdateExpression: 'SET #s = :s ADD attempts :one', ExpressionAttributeNames: { '#s': 'status' }, ExpressionAttributeValues: { ':s': 'running', ':one': 1 } }));
  await doc.send(new PutCommand({ TableName, Item: { pk, sk: 'attempt#1', output: 'y'.repeat(500), checks: [{ kind: 'output_contains', passed: true }] } }));
  await doc.send(new QueryCommand({ TableName, KeyConditionExpression: 'pk = :pk AND begins_with(sk, :a)', ExpressionAttributeValues: { ':pk': pk, ':a': 'attempt#' } }));
  await doc.send(new UpdateCommand({ TableName, Key: { pk: 'batch', sk: String(batch) }, UpdateExpression: 'ADD done :one', ExpressionAttributeValues: { ':one': 1 } }));
}
async function batch(b) {
  const t0 = performance.now();
  let next = 0;
  await Promise.all(Array.from({ length: Number(concurrency) }, async () => { while (next < Number(cases)) await oneCase(b, next++); }));
  return performance.now() - t0;
}
(async () => {
  await raw.send(new CreateTableCommand({ TableName, BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }, { AttributeName: 'sk', AttributeType: 'S' }],
    KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }, { AttributeName: 'sk', KeyType: 'RANGE' }] }));
  const ms = [];
  for (let b = 0; b < 3; b++) ms.push(await batch(b));
  console.log(JSON.stringify(ms));
})().catch((e) => { console.error(e); process.exit(1); });
`;

/** Runs `script` with `args` on `node`; resolves with its first line of output, leaving it running when `keep`. */
function run(node: string, script: string, args: string[], keep: boolean): Promise<{ line: string; stop: () => void }> {
  return new Promise((resolve, reject) => {
    const child = spawn(node, ['-e', script, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (d: string) => {
      out += d;
      const nl = out.indexOf('\n');
      if (nl >= 0 && keep) resolve({ line: out.slice(0, nl), stop: () => child.kill() });
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      if (keep) reject(new Error(`the store exited (${code}) before it listened`));
      else if (code === 0) resolve({ line: out.trim(), stop: () => undefined });
      else reject(new Error(`the stack's client exited with ${code}`));
    });
  });
}

/** `rounds` rounds on `node`, each a fresh store and client: three batches of `cases` cases, `concurrency` at a time. */
export async function benchStackWarmup(node: string, cases = 1000, concurrency = 16, rounds = 3): Promise<StackWarmup> {
  const all: number[][] = [];
  for (let i = 0; i < rounds; i++) {
    const store = await run(node, STORE_SCRIPT, [REPO_ROOT], true);
    try {
      const client = await run(node, CLIENT_SCRIPT, [REPO_ROOT, store.line.trim(), String(cases), String(concurrency)], false);
      all.push(JSON.parse(client.line) as number[]);
    } finally {
      store.stop();
    }
  }
  return { cases, concurrency, rounds: all, firstOverWarm: median(all.map((b) => b[0] / b[1])) };
}

export function formatStackWarmup(w: StackWarmup): string {
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  return [
    `the stack alone (the SDK's document client and dynalite, no rts code): ${w.cases} cases of ${CALLS_PER_CASE} store calls, ${w.concurrency} at a time, three batches per fresh pair of processes`,
    ...w.rounds.map((b, i) => `  round ${i + 1}: ${b.map((ms) => s(ms)).join(' / ')} (first / warm ${(b[0] / b[1]).toFixed(2)})`),
    `  first / warm, median of the rounds: ${w.firstOverWarm.toFixed(2)}`,
  ].join('\n');
}
