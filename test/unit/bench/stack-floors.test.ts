// The benches' references for the stack alone: the reference bundles of the parts a kind of function carries (built as
// the functions are, each loading and serving in a fresh process) and the SDK-and-dynalite batches. Their figures are
// printed, not asserted: these tests check that what they measure is what they say.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { buildReference } from '../../bench/bundles';
import { STACK_PARTS } from '../../bench/stack-floors';
import { benchStackWarmup, formatStackWarmup } from '../../bench/stack-warmup';

// Loads a bundle in a fresh process whose AWS endpoint is a loopback server answering every call with an empty JSON
// object (SQS's with the digest it checks), calls its handler with a filter-shaped event and a Lambda context, and prints the operations it sent.
const PROBE = `
const http = require('node:http');
const targets = [];
const server = http.createServer((req, res) => {
  targets.push(req.headers['x-amz-target'] || req.url);
  let body = '';
  req.on('data', (d) => (body += d)).on('end', () => {
    // SQS checks the digest of the body it sent.
    const answer = req.headers['x-amz-target'] === 'AmazonSQS.SendMessage'
      ? { MessageId: 'm-1', MD5OfMessageBody: require('node:crypto').createHash('md5').update(JSON.parse(body).MessageBody).digest('hex') }
      : {};
    res.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' }).end(JSON.stringify(answer));
  });
});
server.listen(0, '127.0.0.1', () => {
  process.env.AWS_ENDPOINT_URL = 'http://127.0.0.1:' + server.address().port;
  const { handler } = require(process.argv[1]);
  handler({ status: 'queued' }, { awsRequestId: 'r-1', functionName: 'f', getRemainingTimeInMillis: () => 1000 })
    .then(() => 'served', (err) => 'failed: ' + err.message)
    .then((outcome) => { process.stdout.write(JSON.stringify({ outcome, targets })); server.close(); });
});
`;

describe('the stack parts of the bundle bench', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'rts-stack-parts-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each(STACK_PARTS.map((p, i) => [p.name, i] as const))('%s builds as the functions do and serves', (_name, i) => {
    // Prepare
    const part = STACK_PARTS[i];
    // Act
    const file = buildReference(part.source, `part-${i}.ts`, path.join(dir, `part-${i}`));
    const { outcome, targets } = JSON.parse(
      execFileSync(process.execPath, ['-e', PROBE, file], {
        encoding: 'utf8',
        env: { PATH: process.env.PATH, AWS_REGION: 'us-east-1', AWS_ACCESS_KEY_ID: 'a', AWS_SECRET_ACCESS_KEY: 'b', POWERTOOLS_LOG_LEVEL: 'SILENT' },
      }),
    ) as { outcome: string; targets: string[] };
    // Assert: it serves, sending what its name says it carries, the baseline's read last
    expect(outcome).toBe('served');
    const expected = [
      /SQS/.test(part.name) && 'AmazonSQS.SendMessage',
      /EventBridge/.test(part.name) && 'AWSEvents.PutEvents',
      'DynamoDB_20120810.GetItem',
    ];
    expect(targets).toEqual(expected.filter(Boolean));
    const code = readFileSync(file, 'utf8');
    expect(code.includes('POWERTOOLS_LOG_LEVEL')).toBe(true);
    expect(/\$ZodObject/.test(code)).toBe(/zod/.test(part.name));
  });
});

describe('benchStackWarmup', () => {
  it('runs three batches of the SDK against dynalite per round and takes the median first / warm', async () => {
    // Act
    const w = await benchStackWarmup(process.execPath, 20, 4, 2);
    // Assert
    expect(w.rounds).toHaveLength(2);
    for (const batches of w.rounds) {
      expect(batches).toHaveLength(3);
      for (const ms of batches) expect(ms).toBeGreaterThan(0);
    }
    const ratios = w.rounds.map((b) => b[0] / b[1]).sort((a, b) => a - b);
    expect(w.firstOverWarm).toBeCloseTo((ratios[0] + ratios[1]) / 2, 10);
    expect(formatStackWarmup(w)).toContain('20 cases of 6 store calls, 4 at a time');
  }, 60_000);
});
