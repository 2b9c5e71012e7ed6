// "Run an example" of docs/mcp-frameworks.md run as written: the secret made by its first line, the example endpoint it
// names (examples/mcp/serve.ts, its model a scripted OpenAI-compatible server instead of OpenAI's), the campaign file
// its `node -e` line writes, `rts apply` of that file and the documented run, each command its own process against
// `rts serve` on a fresh data folder. As in the quick start's test, the ports are free ones (the endpoint's URL and
// the file's path are put in place of the documented ones).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { blocksOf, commandShapes, commandsOf, runProcess, runRts, userEnv, words } from '../helpers/doc-commands';
import { startFrameworkEndpoint, type FrameworkEndpoint } from '../helpers/framework-endpoint';
import { refundModel } from '../helpers/mcp-framework-suite';
import { startScriptedModel, type ScriptedModel } from '../helpers/scripted-model';
import { startServeProcess, type ServedProcess } from '../helpers/serve-process';

const DOC = 'docs/mcp-frameworks.md';

describe(`the example run of ${DOC}`, () => {
  it('runs as written: the secret, the endpoint, the campaign file, apply and a run of the refund trace', async () => {
    // Prepare: the commands of the section's shell block.
    const [block] = blocksOf(DOC, '## Run an example');
    expect(block.lang).toBe('sh');
    const commands = commandsOf(block);
    expect(commandShapes(block)).toEqual([
      'export INVOKE_SECRET=$(node -p',
      'OPENAI_API_KEY=sk-... npx tsx',
      "node -e const c=require('./samples/campaign.json'); c.name='my agent over MCP'; c.target={type:'mcp',url:'http://127.0.0.1:8789/invoke',headers:{Authorization:'Bearer \\${INVOKE_SECRET}'}}; console.log(JSON.stringify({version:1,campaigns:[c]}))",
      'npx rts apply',
      'npx rts runs',
    ]);
    const example = words(commands[1]).at(-1)!;
    const dataDir = mkdtempSync(join(tmpdir(), 'rts-mcp-doc-'));
    const file = join(dataDir, 'rts-mcp.json');
    let model: ScriptedModel | undefined;
    let endpoint: FrameworkEndpoint | undefined;
    let service: ServedProcess | undefined;
    try {
      // Act
      const made = await runProcess('sh', ['-c', commands[0]], process.env);
      const secret = made.out.trim();
      model = await startScriptedModel(refundModel());
      endpoint = await startFrameworkEndpoint(example, { OPENAI_BASE_URL: model.baseURL, OPENAI_API_KEY: 'sk-scripted', INVOKE_SECRET: secret });
      service = await startServeProcess(dataDir);
      const env = userEnv({ RTS_DATA_DIR: dataDir, INVOKE_SECRET: secret });
      const here = (line: string) => line.replaceAll('http://127.0.0.1:8789/invoke', endpoint!.url).replaceAll('/tmp/rts-mcp.json', file);
      const wrote = await runProcess('sh', ['-c', here(commands[2])], env);
      const applied = await runRts(words(here(commands[3])).slice(2), env);
      const report = await runRts(words(commands[4]).slice(2), env);
      // Assess
      expect([made.code, secret]).toEqual([0, expect.stringMatching(/^[0-9a-f]{32}$/)]);
      expect([wrote.code, wrote.err]).toEqual([0, '']);
      const written = readFileSync(file, 'utf8');
      expect(written).toContain('"Authorization":"Bearer ${INVOKE_SECRET}"');
      expect(written).not.toContain(secret);
      expect([applied.code, applied.err]).toEqual([0, '']);
      expect(applied.out).toContain('+ campaign "my agent over MCP": created');
      expect([report.code, report.err]).toEqual([0, expect.stringContaining('uploaded')]);
      expect(report.out).toMatch(/^status {5}completed$/m);
      // The scripted model ignores injected instructions and retries a failed lookup: every attempt passes. It was asked,
      // so the endpoint took the secret the file's header named.
      expect(report.out).toMatch(/^summary {4}6 attempts: 6 passed, 0 failed, 0 unsafe; pass rate 1\.00$/m);
      expect(model.seen().length).toBeGreaterThan(0);
    } finally {
      await endpoint?.stop();
      await model?.close();
      await service?.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
