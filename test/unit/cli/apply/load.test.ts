// Reading `rts apply` files (functions/cli/apply/): the published JSON Schema is the one derived from the zod schemas,
// the sample file is the sample campaign, every problem names file, line, column and field, `${NAME}` takes the
// environment's value (and remembers it as a secret), globs and content-derived trace ids are stable.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { globFiles } from '../../../../functions/cli/apply/glob';
import { ConfigError, loadFile, type ConfigProblem } from '../../../../functions/cli/apply/load';
import { contentTraceId, resolveTraces } from '../../../../functions/cli/apply/traces';
import { execFileSync } from 'node:child_process';

const ROOT = join(__dirname, '..', '..', '..', '..');
const SCHEMA_FILE = join(ROOT, 'schemas', 'rts.schema.json');
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'rts-apply-load-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function write(name: string, text: string): string {
  const path = join(dir, name);
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
  return path;
}

function problemsOf(file: string, env: NodeJS.ProcessEnv = {}): ConfigProblem[] {
  try {
    resolveTraces(loadFile(file, env), dir);
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  throw new Error(`${file} loaded without a problem`);
}

const trace = (name: string, id?: string) =>
  JSON.stringify({
    ...(id ? { trace_id: id } : {}),
    name,
    steps: [
      { role: 'user', content: name },
      { role: 'assistant', content: 'ok' },
    ],
  });

describe('schemas/rts.schema.json', () => {
  it('is the JSON Schema derived from the file and campaign zod schemas (npm run schema:rts rewrites it)', () => {
    const check = () =>
      execFileSync(process.execPath, ['--import', 'tsx', join(ROOT, 'test', 'helpers', 'rts-schema.ts'), '--check'], {
        stdio: 'pipe',
        encoding: 'utf8',
      });
    expect(check).not.toThrow();
  }, 60_000);

  it('describes campaigns as the campaign schema plus eval_set, and no other field', () => {
    const schema = JSON.parse(readFileSync(SCHEMA_FILE, 'utf8'));
    const item = schema.properties.campaigns.items;
    expect(item.additionalProperties).toBe(false);
    expect(Object.keys(item.properties)).toEqual(expect.arrayContaining(['name', 'target', 'mutations', 'policies', 'criteria', 'eval_set']));
    expect(item.properties.eval_set.required).toEqual(['traces']);
    expect(schema.required).toEqual(['version', 'campaigns']);
  });
});

describe('samples/rts.yaml', () => {
  it('holds samples/campaign.json with the five sample traces (min_scenarios 4), and samples/campaign-mcp.json', () => {
    // Act
    const loaded = loadFile(join(ROOT, 'samples', 'rts.yaml'), {});
    const traces = resolveTraces(loaded, ROOT);
    // Assess
    expect(loaded.campaigns).toHaveLength(2);
    expect(loaded.campaigns[0].definition).toEqual(JSON.parse(readFileSync(join(ROOT, 'samples', 'campaign.json'), 'utf8')));
    expect(loaded.campaigns[1].definition).toEqual(JSON.parse(readFileSync(join(ROOT, 'samples', 'campaign-mcp.json'), 'utf8')));
    expect(loaded.campaigns[1].evalSet).toBeUndefined();
    expect(loaded.campaigns[0].evalSet?.min_scenarios).toBe(4);
    expect(traces.evalSets.get(0)?.sort()).toEqual(
      [
        '76f29022-decc-42bb-99fe-7a2dea7db646',
        '10a0b79f-6c14-48d4-ac10-882a55da804a',
        '0db87efa-173b-4450-99bd-d0636f4087ee',
        '3c9ca99c-abce-42c2-be40-48ed3b3d0e64',
        '61504985-af21-4ab8-9e63-f6151dc4ed0a',
      ].sort(),
    );
    expect(loaded.secrets).toEqual([]);
  });

  it('points the target at RTS_DEMO_AGENT_URL when it is set', () => {
    const loaded = loadFile(join(ROOT, 'samples', 'rts.yaml'), { RTS_DEMO_AGENT_URL: 'http://127.0.0.1:9999/step' });
    expect(loaded.campaigns[0].definition.target).toMatchObject({ url: 'http://127.0.0.1:9999/step' });
  });
});

describe('invalid files', () => {
  it('names file, line, column and field of every problem, in line order', () => {
    // Prepare
    const file = write(
      'rts.yaml',
      [
        'version: 1', // 1
        'campaigns:', // 2
        '  - name: bot', // 3
        '    target: { type: http, url: not-a-url }', // 4
        '    mutatoins: []', // 5
        '    mutations:', // 6
        '      - id: down', // 7
        '        type: tool_error', // 8
        '    repeats: 0', // 9
      ].join('\n'),
    );
    // Act
    const problems = problemsOf(file);
    // Assess
    expect(problems.map((p) => [p.line, p.field])).toEqual([
      [4, 'campaigns[0].target.url'],
      [5, 'campaigns[0].mutatoins'],
      [7, 'campaigns[0].mutations[0].tool'],
      [9, 'campaigns[0].repeats'],
    ]);
    expect(problems.every((p) => p.file === file && p.column > 0)).toBe(true);
    expect(problems[1].message).toBe('unknown field');
  });

  it('reports YAML syntax errors and duplicate keys with their line', () => {
    const broken = write('broken.yaml', 'version: 1\ncampaigns:\n  - name: a\n    target: {type: recorded\n');
    expect(problemsOf(broken)[0]).toMatchObject({ file: broken, line: expect.any(Number), field: '' });
    const dup = write('dup.yaml', 'version: 1\nversion: 1\ncampaigns: []\n');
    expect(problemsOf(dup)[0]).toMatchObject({ line: 2, message: expect.stringMatching(/unique/i) });
  });

  it('reads JSON files the same way, with their lines', () => {
    const file = write(
      'rts.json',
      '{\n  "version": 1,\n  "campaigns": [\n    {"name": "j", "target": {"type": "recorded"}, "repeats": "2"}\n  ]\n}\n',
    );
    expect(problemsOf(file)).toEqual([expect.objectContaining({ line: 4, field: 'campaigns[0].repeats' })]);
  });

  it('refuses a wrong version, unknown top-level fields, duplicate names and an unknown eval_set field', () => {
    const file = write(
      'rts.yaml',
      'version: 2\ncampaign: []\ncampaigns:\n  - {name: a, target: {type: recorded}}\n  - {name: a, target: {type: recorded}, eval_set: {traces: [], min: 1}}\n',
    );
    expect(problemsOf(file).map((p) => [p.line, p.field, p.message])).toEqual([
      [1, 'version', expect.any(String)],
      [2, 'campaign', 'unknown field'],
      [5, 'campaigns[1].eval_set.min', 'unknown field'],
    ]);
    const names = write('names.yaml', 'version: 1\ncampaigns:\n  - {name: a, target: {type: recorded}}\n  - {name: a, target: {type: recorded}}\n');
    expect(problemsOf(names)).toEqual([expect.objectContaining({ line: 4, field: 'campaigns[1].name', message: expect.stringContaining('unique') })]);
  });

  it('names the glob that matches no file and the trace file that is not a trace', () => {
    write('traces/bad.json', '[1]');
    const file = write(
      'rts.yaml',
      'version: 1\ncampaigns:\n  - name: a\n    target: {type: recorded}\n    eval_set:\n      traces:\n        - none/*.json\n        - traces/bad.json\n',
    );
    expect(problemsOf(file).map((p) => [p.line, p.field, p.message])).toEqual([
      [7, 'campaigns[0].eval_set.traces[0]', "no file matches 'none/*.json'"],
      [8, 'campaigns[0].eval_set.traces[1]', expect.stringContaining('is not a trace')],
    ]);
  });

  it('names a cannot-read file without a line', () => {
    expect(problemsOf(join(dir, 'missing.yaml'))).toEqual([expect.objectContaining({ line: 0, message: expect.stringContaining('cannot read') })]);
  });
});

describe('${NAME} references', () => {
  const file = () =>
    write(
      'rts.yaml',
      [
        'version: 1',
        'campaigns:',
        '  - name: "bot ${SUFFIX:-dev}"',
        '    description: "costs $${PRICE}"',
        '    target: { type: openai, base_url: "https://api.example.com/v1", model: m, api_key: "${OPENAI_API_KEY}" }',
      ].join('\n'),
    );

  it('takes the value from the environment and remembers it as a secret; a default when unset; $${ stays literal', () => {
    const loaded = loadFile(file(), { OPENAI_API_KEY: 'sk-test-123' });
    expect(loaded.campaigns[0].definition).toMatchObject({ name: 'bot dev', description: 'costs ${PRICE}', target: { api_key: 'sk-test-123' } });
    expect(loaded.secrets).toEqual(['sk-test-123']);
  });

  it('is a problem at its line when the variable is not set', () => {
    expect(problemsOf(file())).toEqual([
      expect.objectContaining({ line: 5, field: 'campaigns[0].target.api_key', message: 'the environment variable OPENAI_API_KEY is not set' }),
    ]);
  });
});

describe('trace files and ids', () => {
  it('expands globs relative to the file, sorted, and keeps or derives each trace id', () => {
    // Prepare
    write('t/b.json', trace('b'));
    write('t/a.json', trace('a', '76F29022-DECC-42BB-99FE-7A2DEA7DB646'));
    write('t/sub/c.json', `[${trace('c1')}, ${trace('c2')}]`);
    const file = write(
      'cfg/rts.yaml',
      'version: 1\ncampaigns:\n  - name: a\n    target: {type: recorded}\n    eval_set: {traces: ["../t/**/*.json", ../t/b.json]}\n',
    );
    // Act
    const { traces, evalSets } = resolveTraces(loadFile(file, {}), dir);
    // Assess
    expect(traces.map((t) => t.source)).toEqual(['t/a.json', 't/b.json', 't/sub/c.json[0]', 't/sub/c.json[1]']);
    expect(traces[0].trace_id).toBe('76f29022-decc-42bb-99fe-7a2dea7db646');
    expect(traces[1].trace_id).toBe(contentTraceId(JSON.parse(trace('b'))));
    expect(evalSets.get(0)).toEqual(traces.map((t) => t.trace_id));
    for (const t of traces) expect(t.trace_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('derives the same id from the same content whatever its key order, another from other content', () => {
    expect(contentTraceId({ a: 1, b: [2] })).toBe(contentTraceId({ b: [2], a: 1 }));
    expect(contentTraceId({ a: 1 })).not.toBe(contentTraceId({ a: 2 }));
  });

  it('globs: ?, [..], {a,b}, ** and no hidden files', () => {
    for (const f of ['x1.json', 'x2.json', 'y.json', '.hidden.json', 'd/e/x3.json', '.git/x4.json']) write(`g/${f}`, '{}');
    const rel = (p: string[]) => p.map((f) => f.slice(join(dir, 'g').length + 1));
    expect(rel(globFiles('g/x?.json', dir))).toEqual(['x1.json', 'x2.json']);
    expect(rel(globFiles('g/[xy]*.json', dir))).toEqual(['x1.json', 'x2.json', 'y.json']);
    expect(rel(globFiles('g/{y,x1}.json', dir))).toEqual(['x1.json', 'y.json']);
    expect(rel(globFiles('g/**/x*.json', dir))).toEqual(['d/e/x3.json', 'x1.json', 'x2.json']);
  });
});
