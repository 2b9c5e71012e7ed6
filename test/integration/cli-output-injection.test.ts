// What the CLI prints from user data in a CI log: trace and campaign names carrying line breaks and `::` never start a
// line a CI runner would take for a workflow command; the CLI's own `::error` annotations are the only such lines.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runTraces } from '../../functions/cli/traces';
import { captureOutput } from '../helpers/capture-output';
import { createCampaign, createTraces, failingTrace, passingTrace, setEvalSet, runCiAgainst } from '../helpers/ci';
import { startTestService, type TestService } from '../helpers/local-service';

/** Every line break a log reader may split on (.NET's ReadLine splits on CR and LF; viewers on NEL, LS, PS too). */
const ANY_BREAK = /\r\n|[\n\r\v\f\u0085\u2028\u2029]/;

/** The lines that a CI runner would read as a workflow command (GitHub `::` and `##[`, Azure `##vso[`). */
const commandLines = (text: string) => text.split(ANY_BREAK).filter((l) => /^(::|##\[|##vso\[)/i.test(l.trimStart()));

/** The CLI's own annotations: `::error title=rts...::` per failing cell, `::error::rts: ...` for the rest. */
const OWN_ANNOTATION = /^::error (title=rts(%3A| ci%3A) )|^::error::rts: /;

const INJECTED = [
  'inj\n::warning title=INJ::pwned',
  'cr\r::set-output name=verdict::pass',
  'crlf\r\n  ::add-mask::x',
  'ls\u2028::notice::y',
  'ps\u2029##[warning]legacy',
  'nel\u0085##vso[task.setvariable variable=x]1',
];

let svc: TestService;
let dir: string;

beforeAll(async () => {
  svc = await startTestService({ deliverWebhooks: false, queue: { concurrency: 8, redeliveryDelayMs: 20 } });
  dir = mkdtempSync(join(tmpdir(), 'rts-cli-inject-'));
}, 60000);
afterAll(async () => {
  await svc.stop();
  rmSync(dir, { recursive: true, force: true });
});

const ci = (args: string[]) => runCiAgainst(svc, args, { GITHUB_ACTIONS: 'true' });

describe('CLI output in CI logs', () => {
  let campaignId: string;
  beforeAll(async () => {
    // Half the scenarios fail, so their names reach the table, the failing cells, the reasons and the annotations.
    const traces = INJECTED.map((name, i) => (i % 2 ? passingTrace(name) : failingTrace(name)));
    const ids = await createTraces(svc, traces);
    campaignId = await createCampaign(svc, { name: 'camp\n::warning::campaign' });
    await setEvalSet(svc, campaignId, ids);
  }, 60000);

  it('rts ci run prints no user line that passes for a workflow command, in the table or with --json', async () => {
    // Prepare
    const summary = join(dir, 'summary.md');
    const junit = join(dir, 'junit.xml');

    // Act
    const text = await ci(['--campaign', campaignId, '--summary', summary, '--junit', junit]);
    const json = await ci(['--campaign', campaignId, '--json']);

    // Assess
    expect(text.code).toBe(1);
    expect(json.code).toBe(1);
    for (const out of [text.stdout, text.stderr, json.stdout, json.stderr]) {
      for (const line of commandLines(out)) expect(line).toMatch(OWN_ANNOTATION);
    }
    // The failing scenarios are annotated (3 of them), and their names still read on one line of the table.
    expect(commandLines(text.stdout)).toHaveLength(3);
    expect(commandLines(json.stderr)).toHaveLength(3);
    expect(text.stdout).toMatch(/^inj ::warning title=INJ::pwned +completed /m);
    expect(
      JSON.parse(json.stdout)
        .scenarios.map((s: { trace_name: string }) => s.trace_name)
        .sort(),
    ).toEqual([...INJECTED].sort());
    expect(commandLines(readFileSync(summary, 'utf8'))).toEqual([]);
    expect(readFileSync(summary, 'utf8')).toContain('inj ::warning title=INJ::pwned');
    expect(commandLines(readFileSync(junit, 'utf8'))).toEqual([]);
  }, 60000);

  it('rts traces upload prints the names it stored without a command line', async () => {
    // Prepare
    const file = join(dir, 'traces.json');
    writeFileSync(file, JSON.stringify(INJECTED.map((name) => passingTrace(name))));
    Object.assign(process.env, { RTS_API_URL: svc.url, RTS_API_KEY: svc.apiKey, RTS_PROJECT_ID: svc.projectId });

    // Act
    const plain = await captureOutput(() => runTraces(['upload', file]));
    const json = await captureOutput(() => runTraces(['upload', file, '--json']));

    // Assess
    expect(plain.code).toBe(0);
    expect(plain.out.trim().split('\n')).toHaveLength(INJECTED.length);
    for (const out of [plain.out, plain.err, json.out, json.err]) expect(commandLines(out)).toEqual([]);
    expect(JSON.parse(json.out).map((t: { name: string }) => t.name)).toEqual(INJECTED);
  }, 60000);
});
