// `rts apply` against the local service, in process: a second apply of the same file changes nothing and says so; a
// changed mutation is one update; a new trace file grows the eval-set by one; --dry-run changes nothing; a secret from
// the environment reaches the stored campaign and never the output; exit 1 for an invalid file, 2 for an API error.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runApply } from '../../functions/cli/apply/command';
import { runCampaigns } from '../../functions/cli/campaigns';
import { getDeps } from '../../functions/wiring/deps';
import { sampleTrace } from '../helpers/fixtures';
import { startTestService, type TestService } from '../helpers/local-service';

let svc: TestService;
let dir: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  svc = await startTestService({ deliverWebhooks: false });
  env = { RTS_API_URL: svc.url, RTS_API_KEY: svc.apiKey, RTS_PROJECT_ID: svc.projectId };
}, 60_000);
afterAll(() => svc.stop());
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'rts-cli-apply-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the command with its output captured. */
async function apply(args: string[], extraEnv: NodeJS.ProcessEnv = {}) {
  let out = '';
  let err = '';
  const code = await runApply(args, {
    stdout: { write: (s: string) => (out += s) },
    stderr: { write: (s: string) => (err += s) },
    env: { ...env, ...extraEnv },
  });
  return { code, out, err };
}

function writeTrace(name: string): void {
  mkdirSync(join(dir, 'traces'), { recursive: true });
  const { trace_id: _id, ...trace } = sampleTrace({ name }) as Record<string, unknown>;
  writeFileSync(join(dir, 'traces', `${name}.json`), JSON.stringify(trace));
}

/** An apply file of one campaign (an http target that is never called here) whose eval-set is traces/*.json. */
function writeFile(name: string, mutations: string[], extra = ''): string {
  const file = join(dir, 'rts.yaml');
  const lines = [
    'version: 1',
    'campaigns:',
    `  - name: ${JSON.stringify(name)}`,
    '    target:',
    '      type: http',
    '      url: http://127.0.0.1:9/step',
    ...(extra ? [extra] : []),
    '    mutations:',
    ...mutations.map((id) => `      - { id: ${id}, type: tool_error, tool: lookup_order }`),
    '    eval_set: { traces: [traces/*.json], min_scenarios: 1 }',
  ];
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

async function campaignNamed(name: string) {
  const res = await svc.api('GET', '/v1/campaigns?limit=100');
  return (res.body.items as { name: string; campaign_id: string; version: number }[]).find((c) => c.name === name)!;
}

const evalSetOf = async (id: string) => (await svc.api('GET', `/v1/campaigns/${id}/eval-set`)).body as { trace_ids: string[]; min_scenarios: number };

describe('rts apply', () => {
  it('creates the campaign and its eval-set, then a second apply changes nothing and says so', async () => {
    // Prepare
    const name = `apply twice ${Date.now()}`;
    writeTrace('one');
    writeTrace('two');
    const file = writeFile(name, ['down']);
    // Act
    const first = await apply(['-f', file]);
    const second = await apply(['-f', file]);
    // Assess
    expect([first.code, first.err]).toEqual([0, '']);
    expect(first.out).toMatch(new RegExp(`\\+ campaign "${name}": created [0-9a-f-]{36}, version 1`));
    expect(first.out).toContain('eval-set: +2 traces, min_scenarios 1; 2 traces in the pool');
    expect(first.out).toContain('Applied: 2 traces uploaded; campaigns: 1 created, 0 updated, 0 unchanged; 1 eval-set changed.');
    expect([second.code, second.err]).toEqual([0, '']);
    expect(second.out).toContain(`= campaign "${name}": unchanged, version 1`);
    expect(second.out).toContain(`No changes: 1 campaign and 2 traces are as ${file} says.`);
    expect(second.out).not.toContain('+ trace');
    const c = await campaignNamed(name);
    expect(c.version).toBe(1);
    expect((await evalSetOf(c.campaign_id)).trace_ids).toHaveLength(2);
  });

  it('makes a changed mutation one update, and a new trace file one more trace in the eval-set', async () => {
    // Prepare
    const name = `apply changes ${Date.now()}`;
    writeTrace('alpha');
    await apply(['-f', writeFile(name, ['down'])]);
    const before = await campaignNamed(name);
    // Act
    const changed = await apply(['-f', writeFile(name, ['down-again'])]);
    writeTrace('beta');
    const grown = await apply(['-f', writeFile(name, ['down-again'])]);
    // Assess
    expect(changed.code).toBe(0);
    expect(changed.out).toContain(`~ campaign "${name}": updated ${before.campaign_id} to version 2 (mutations +down-again -down)`);
    expect(changed.out).toContain('campaigns: 0 created, 1 updated, 0 unchanged; 0 eval-sets changed.');
    const versions = await svc.api('GET', `/v1/campaigns/${before.campaign_id}/versions`);
    expect(versions.body.items.map((v: { version: number }) => v.version)).toEqual([2, 1]);
    expect(grown.code).toBe(0);
    expect(grown.out).toMatch(/\+ trace [0-9a-f-]{36} beta \(.*traces\/beta\.json\): uploaded/);
    expect(grown.out).toContain('eval-set: +1 trace; 2 traces in the pool');
    expect((await campaignNamed(name)).version).toBe(2);
    expect((await evalSetOf(before.campaign_id)).trace_ids).toHaveLength(2);
  });

  it('prints the plan and changes nothing with --dry-run', async () => {
    // Prepare
    const name = `apply dry ${Date.now()}`;
    writeTrace('first');
    await apply(['-f', writeFile(name, ['down'])]);
    const before = await campaignNamed(name);
    const pool = await evalSetOf(before.campaign_id);
    writeTrace('second');
    const file = writeFile(name, ['down', 'slow']);
    // Act
    const dry = await apply(['-f', file, '--dry-run']);
    // Assess
    expect(dry.code).toBe(0);
    expect(dry.out).toContain(`Plan for ${file} (dry run: nothing is changed)`);
    expect(dry.out).toMatch(/\+ trace ([0-9a-f-]{36}) second \(.*\): upload\n/);
    expect(dry.out).toContain(`~ campaign "${name}": update ${before.campaign_id} from version 1 (mutations +slow)`);
    expect(dry.out).toContain('eval-set (to change): +1 trace; 2 traces in the pool');
    expect(dry.out).toContain(
      'Dry run: 1 trace to upload; campaigns: 0 to create, 1 to update, 0 unchanged; 1 eval-set to change. Nothing was changed.',
    );
    const newTrace = /\+ trace ([0-9a-f-]{36}) second/.exec(dry.out)![1];
    expect((await svc.api('GET', `/v1/traces/${newTrace}`)).status).toBe(404);
    expect((await campaignNamed(name)).version).toBe(1);
    expect(await evalSetOf(before.campaign_id)).toEqual(pool);
    // A dry run of a new campaign creates nothing either.
    const fresh = await apply(['-f', writeFile(`${name} new`, ['down']), '--dry-run']);
    expect(fresh.out).toContain(`+ campaign "${name} new": create (1 mutation, 0 policies, 1 criterion)`);
    expect(await campaignNamed(`${name} new`)).toBeUndefined();
  });

  it('puts a secret from the environment into the campaign and never into the output', async () => {
    // Prepare
    const name = `apply secret ${Date.now()}`;
    const secret = `s3cr3t-${Date.now()}-token`;
    writeTrace('guarded');
    const file = writeFile(name, ['down'], '      headers: { Authorization: "Bearer ${AGENT_TOKEN}" }');
    // Act
    const runs = [
      await apply(['-f', file, '--dry-run'], { AGENT_TOKEN: secret }),
      await apply(['-f', file], { AGENT_TOKEN: secret }),
      await apply(['-f', file], { AGENT_TOKEN: secret }),
      await apply(['-f', file], { AGENT_TOKEN: `${secret}-rotated` }),
    ];
    // Assess
    const c = await campaignNamed(name);
    const stored = (await getDeps().campaigns.get(svc.projectId, c.campaign_id)) as unknown as { target: { headers: Record<string, string> } };
    expect(stored.target.headers.Authorization).toBe(`Bearer ${secret}-rotated`);
    expect(runs.map((r) => r.code)).toEqual([0, 0, 0, 0]);
    expect(runs[2].out).toContain(`= campaign "${name}": unchanged, version 1`);
    expect(runs[3].out).toContain(`~ campaign "${name}": updated ${c.campaign_id} to version 2 (write-only secrets)`);
    let shown = '';
    await runCampaigns(['show', name], { stdout: { write: (s: string) => (shown += s) }, stderr: { write: (s: string) => (shown += s) }, env });
    for (const text of [...runs.flatMap((r) => [r.out, r.err]), shown]) expect(text).not.toContain(secret);
    expect(shown).toContain('"Authorization": "***"');
  });

  it('masks a value from the environment wherever it would be printed: a name, an error', async () => {
    // Prepare
    const secret = `leaky-${Date.now()}`;
    writeTrace('leak');
    const file = writeFile('apply leak ${LEAKY}', ['down']);
    // Act
    const applied = await apply(['-f', file], { LEAKY: secret });
    writeFileSync(file, readFileSync(file, 'utf8').replace('min_scenarios: 1', 'min_scenarios: 5000'));
    const invalid = await apply(['-f', file], { LEAKY: secret });
    // Assess
    expect(applied.code).toBe(0);
    expect(applied.out).toContain('+ campaign "apply leak ***": created');
    expect(await campaignNamed(`apply leak ${secret}`)).toBeDefined();
    expect(invalid.code).toBe(1);
    expect(invalid.err).toMatch(/rts\.yaml:\d+:\d+: campaigns\[0\]\.eval_set\.min_scenarios: /);
    for (const text of [applied.out, applied.err, invalid.out, invalid.err]) expect(text).not.toContain(secret);
  });

  it('exits 1 for an invalid file, naming file, line and field, and 2 for an API error', async () => {
    // Prepare
    writeTrace('x');
    const file = writeFile(`apply errors ${Date.now()}`, ['down']);
    const bad = join(dir, 'bad.yaml');
    writeFileSync(bad, 'version: 1\ncampaigns:\n  - name: bad\n    target: { type: http }\n');
    // Act
    const invalid = await apply(['-f', bad]);
    const refused = await apply(['-f', file], { RTS_API_KEY: `rts_${'x'.repeat(40)}` });
    // Assess
    expect(invalid.code).toBe(1);
    expect(invalid.err).toContain(`${bad}:4:5: campaigns[0].target.url: Invalid input`);
    expect(refused.code).toBe(2);
    expect(refused.err).toMatch(/^rts apply: HTTP 401 unauthorized: .*\(check RTS_API_KEY and RTS_PROJECT_ID\)/m);
  });

  it('refuses a name that several campaigns of the project share (exit 2), naming their ids', async () => {
    const name = `apply shared ${Date.now()}`;
    writeTrace('shared');
    for (let i = 0; i < 2; i++) await svc.api('POST', '/v1/campaigns', { name, target: { type: 'recorded' } });
    const res = await apply(['-f', writeFile(name, ['down'])]);
    expect(res.code).toBe(2);
    expect(res.err).toMatch(new RegExp(`2 campaigns of the project are named '${name}' \\([0-9a-f-]{36}, [0-9a-f-]{36}\\)`));
  });
});
