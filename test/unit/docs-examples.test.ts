// The documentation shows example code as it is in examples/: a code block right after a paragraph that opens with a
// link to a file there holds that file's text exactly, and docs/mcp-frameworks.md shows every file of examples/mcp/.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const DOCS = readdirSync(join(ROOT, 'docs'))
  .filter((name) => name.endsWith('.md'))
  .map((name) => join(ROOT, 'docs', name));

/** Each fenced block after a paragraph opening with a link to a file under examples/: that file and the block. */
export function shownExamples(markdown: string, file: string): Array<{ example: string; block: string }> {
  const lines = markdown.split('\n');
  const shown: Array<{ example: string; block: string }> = [];
  let opening = ''; // the first line of the last paragraph
  let blank = true;
  for (let i = 0; i < lines.length; i++) {
    const fence = /^(`{3,})\w*\s*$/.exec(lines[i]);
    if (fence) {
      let close = i + 1;
      while (close < lines.length && lines[close].trim() !== fence[1]) close++;
      const link = /^\[[^\]]*\]\(((?:\.\.\/)+examples\/[^)#\s]+)\)/.exec(opening);
      if (link) shown.push({ example: relative(ROOT, resolve(dirname(file), link[1])), block: `${lines.slice(i + 1, close).join('\n')}\n` });
      [i, opening, blank] = [close, '', true];
      continue;
    }
    if (lines[i].trim() !== '' && blank) opening = lines[i].trim();
    blank = lines[i].trim() === '';
  }
  return shown;
}

/** The blocks marked `<!-- example: name -->` in a page, by name. */
export function namedExamples(markdown: string): Map<string, string> {
  return new Map([...markdown.matchAll(/^<!-- example: ([\w-]+) -->\n```\w*\n([\s\S]*?)^```$/gm)].map((m) => [m[1], m[2]]));
}

describe('code examples in the documentation', () => {
  it.each(DOCS.map((f) => [relative(ROOT, f), f]))(
    "%s: every block marked <!-- example: name --> is the SDK README's, which test/integration/sdk-package.test.ts runs",
    (_name, file) => {
      // Prepare
      const sdk = namedExamples(readFileSync(join(ROOT, 'packages', 'sdk', 'README.md'), 'utf8'));
      // Act
      const shown = [...namedExamples(readFileSync(file, 'utf8'))];
      // Assess
      expect(shown.filter(([name, block]) => sdk.get(name) !== block).map(([name]) => name)).toEqual([]);
    },
  );

  it('finds the marked blocks: the SDK README has its three, the API page the client, the webhooks page the receivers', () => {
    expect([...namedExamples(readFileSync(join(ROOT, 'packages', 'sdk', 'README.md'), 'utf8')).keys()]).toEqual([
      'client',
      'receiver-node',
      'receiver-express',
    ]);
    expect([...namedExamples(readFileSync(join(ROOT, 'docs', 'api.md'), 'utf8')).keys()]).toEqual(['client']);
    expect([...namedExamples(readFileSync(join(ROOT, 'docs', 'webhooks.md'), 'utf8')).keys()]).toEqual(['receiver-node', 'receiver-express']);
  });

  it.each(DOCS.map((f) => [relative(ROOT, f), f]))('%s: every block introduced by a link to examples/ is that file', (_name, file) => {
    // Prepare
    const shown = shownExamples(readFileSync(file, 'utf8'), file);
    // Act
    const stale = shown.filter(({ example, block }) => readFileSync(join(ROOT, example), 'utf8') !== block).map((s) => s.example);
    // Assess
    expect(stale).toEqual([]);
  });

  it('docs/mcp-frameworks.md shows every file of examples/mcp/', () => {
    // Prepare
    const file = join(ROOT, 'docs', 'mcp-frameworks.md');
    // Act
    const shown = shownExamples(readFileSync(file, 'utf8'), file).map((s) => s.example);
    // Assess
    const files = readdirSync(join(ROOT, 'examples', 'mcp')).filter((name) => name.endsWith('.ts'));
    expect(shown.sort()).toEqual(files.map((name) => `examples/mcp/${name}`).sort());
  });

  it('takes a block after a paragraph opening with a link to examples/, not one after a paragraph merely citing it', () => {
    // Prepare
    const md = [
      '[`a.ts`](../examples/a.ts): the first',
      'example.',
      '',
      '```ts',
      'const a = 1;',
      '```',
      '',
      'Not an example: [`a.ts`](../examples/a.ts) is linked later in the paragraph.',
      '',
      '```ts',
      'const b = 2;',
      '```',
      '',
    ].join('\n');
    // Act
    const shown = shownExamples(md, join(ROOT, 'docs', 'x.md'));
    // Assess
    expect(shown).toEqual([{ example: 'examples/a.ts', block: 'const a = 1;\n' }]);
  });
});
