// The rooms of ARCHITECTURE.md, enforced: what each folder may import, no import cycles, no file past 400 lines.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = join(__dirname, '..', '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|js)$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

const FILES = [...sourceFiles(join(ROOT, 'functions')), ...sourceFiles(join(ROOT, 'lib')), ...sourceFiles(join(ROOT, 'bin'))];
const EXAMPLES = sourceFiles(join(ROOT, 'examples'));

/** Every module a file imports or requires: package names as written, relative paths resolved to repo paths. */
function importsOf(file: string): { spec: string; target: string | null; typeOnly: boolean }[] {
  const text = readFileSync(file, 'utf8');
  const found: { spec: string; target: string | null; typeOnly: boolean }[] = [];
  const re = /(?:^|\n)\s*(import|export)\s+(type\s+)?(?:[^'"]*?\sfrom\s+)?['"]([^'"]+)['"]|require\(\s*['"]([^'"]+)['"]\s*\)/g;
  for (const m of text.matchAll(re)) {
    const spec = m[3] ?? m[4];
    const target = spec.startsWith('.') ? relative(ROOT, resolve(dirname(file), spec)) : null;
    found.push({ spec, target, typeOnly: Boolean(m[2]) });
  }
  return found;
}

const rel = (file: string) => relative(ROOT, file);
const DYNAMODB_CLIENTS = /^@aws-sdk\/(client-dynamodb|lib-dynamodb)$/;

describe('import rules of the rooms', () => {
  it('functions/core imports nothing outside itself, its ports included (packages aside)', () => {
    const offending = FILES.filter((f) => rel(f).startsWith('functions/core/')).flatMap((f) =>
      importsOf(f)
        .filter((i) => i.target !== null && !i.target.startsWith('functions/core/'))
        .map((i) => `${rel(f)} -> ${i.spec}`),
    );
    expect(offending).toEqual([]);
  });

  it('functions/core imports no AWS SDK, middy or Powertools', () => {
    const offending = FILES.filter((f) => rel(f).startsWith('functions/core/')).flatMap((f) =>
      importsOf(f)
        .filter((i) => /^(@aws-sdk\/|@middy\/|@aws-lambda-powertools\/|aws-lambda$)/.test(i.spec) && !i.typeOnly)
        .map((i) => `${rel(f)} -> ${i.spec}`),
    );
    expect(offending).toEqual([]);
  });

  it('only functions/adapters/dynamodb imports the DynamoDB clients', () => {
    const offending = FILES.filter((f) => !rel(f).startsWith('functions/adapters/dynamodb/')).flatMap((f) =>
      importsOf(f)
        .filter((i) => DYNAMODB_CLIENTS.test(i.spec))
        .map((i) => `${rel(f)} -> ${i.spec}`),
    );
    expect(offending).toEqual([]);
  });

  it('the repositories send DynamoDB commands through direct-commands.ts, never lib-dynamodb commands themselves', () => {
    const allowed = ['functions/adapters/dynamodb/direct-commands.ts', 'functions/adapters/dynamodb/client.ts'];
    const offending = FILES.filter((f) => rel(f).startsWith('functions/') && !allowed.includes(rel(f))).flatMap((f) =>
      importsOf(f)
        .filter((i) => i.spec === '@aws-sdk/lib-dynamodb' && !i.typeOnly)
        .map((i) => `${rel(f)} -> ${i.spec}`),
    );
    expect(offending).toEqual([]);
  });

  it('no Lambda handler (http, workers, events, dashboard) imports functions/local or functions/cli', () => {
    const handlers = FILES.filter((f) => /^functions\/(http|http-chain|wiring|workers|events|dashboard|adapters|core)\//.test(rel(f)));
    const offending = handlers.flatMap((f) =>
      importsOf(f)
        .filter((i) => i.target !== null && /^functions\/(local|cli)\//.test(i.target))
        .map((i) => `${rel(f)} -> ${i.spec}`),
    );
    expect(offending).toEqual([]);
  });

  it('the service imports none of the agent frameworks (devDependencies, for examples/ and tests); only the demo agent uses the MCP client', () => {
    const offending = FILES.flatMap((f) =>
      importsOf(f)
        .filter((i) => /^(@openai\/agents|ai$|@ai-sdk\/|@langchain\/|@modelcontextprotocol\/)/.test(i.spec))
        .filter((i) => !(rel(f) === 'functions/cli/demo-agent/mcp.ts' && i.spec.startsWith('@modelcontextprotocol/sdk/client/')))
        .map((i) => `${rel(f)} -> ${i.spec}`),
    );
    expect(offending).toEqual([]);
  });

  it('examples/ imports nothing of rts: each example is copied as it is', () => {
    const offending = EXAMPLES.flatMap((f) =>
      importsOf(f)
        .filter((i) => i.target !== null && !i.target.startsWith('examples/'))
        .map((i) => `${rel(f)} -> ${i.spec}`),
    );
    expect(EXAMPLES.length).toBeGreaterThan(0);
    expect(offending).toEqual([]);
  });

  it('has no import cycles among functions/ and lib/ (type-only imports aside)', () => {
    const graph = new Map<string, string[]>();
    const key = (path: string) => path.replace(/\.(ts|js)$/, '').replace(/\/index$/, '');
    for (const f of FILES) {
      graph.set(
        key(rel(f)),
        importsOf(f)
          .filter((i) => i.target !== null && !i.typeOnly)
          .map((i) => key(i.target!)),
      );
    }
    const cycles: string[] = [];
    const state = new Map<string, 'visiting' | 'done'>();
    const stack: string[] = [];
    const visit = (node: string) => {
      state.set(node, 'visiting');
      stack.push(node);
      for (const next of graph.get(node) ?? []) {
        if (!graph.has(next)) continue;
        if (state.get(next) === 'visiting') cycles.push([...stack.slice(stack.indexOf(next)), next].join(' -> '));
        else if (!state.has(next)) visit(next);
      }
      stack.pop();
      state.set(node, 'done');
    };
    for (const node of graph.keys()) if (!state.has(node)) visit(node);
    expect(cycles).toEqual([]);
  });
});

describe('file size', () => {
  // Data tables (rows, no logic to follow) may be longer; none is today.
  const EXEMPT = new Set<string>([]);

  it('keeps every source file under 400 lines, so each does one job', () => {
    const long = [...FILES, ...EXAMPLES]
      .filter((f) => !EXEMPT.has(rel(f)))
      .map((f) => [rel(f), readFileSync(f, 'utf8').split('\n').length] as const)
      .filter(([, lines]) => lines > 400);
    expect(long).toEqual([]);
  });
});
