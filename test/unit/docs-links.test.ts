// The repository's documentation holds together: every relative link of its Markdown names an existing file, every
// #anchor a heading of its target (GitHub's slugs), and every docs citation in a code comment resolves too.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { anchorsOf, brokenLinks, citationsOf, linksOf, problemOf, slugOf } from '../helpers/markdown-links';

const ROOT = join(__dirname, '..', '..');

function filesUnder(dir: string, keep: (name: string) => boolean): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' || name === 'dist' ? [] : filesUnder(path, keep);
    return keep(name) ? [path] : [];
  });
}

const MARKDOWN = [
  join(ROOT, 'README.md'),
  join(ROOT, 'ARCHITECTURE.md'),
  join(ROOT, 'functions', 'core', 'replay', 'README.md'),
  join(ROOT, 'packages', 'sdk', 'README.md'),
  ...filesUnder(join(ROOT, 'docs'), (name) => name.endsWith('.md')),
];

const CODE = ['functions', 'lib', 'bin', 'packages', 'test'].flatMap((dir) =>
  filesUnder(join(ROOT, dir), (name) => /\.(ts|js|mjs)$/.test(name)).filter((f) => f !== __filename),
);

describe('GitHub heading slugs', () => {
  it('lowercases, drops punctuation but - and _, turns each space into -', () => {
    expect(slugOf('Model-graded criteria (`llm_judge`)')).toBe('model-graded-criteria-llm_judge');
    expect(slugOf('Repeats statistics, flaky scenarios and baselines')).toBe('repeats-statistics-flaky-scenarios-and-baselines');
    expect(slugOf('`GET /v1/runs/{id}` against a bare GetItem')).toBe('get-v1runsid-against-a-bare-getitem');
    expect(slugOf('Path (b): from a CI submission to a signed webhook')).toBe('path-b-from-a-ci-submission-to-a-signed-webhook');
    expect(slugOf('SDK (`@rts/sdk`)')).toBe('sdk-rtssdk');
    expect(slugOf('See [the API](api.md) now')).toBe('see-the-api-now');
  });

  it('numbers repeated headings -1, -2 and ignores headings inside code fences', () => {
    const anchors = anchorsOf('# Title\n\n## Setup\n\n```sh\n# not a heading\n```\n\n## Setup\n\n### Setup\n');
    expect([...anchors]).toEqual(['title', 'setup', 'setup-1', 'setup-2']);
  });
});

describe('the link checker', () => {
  const readme = join(ROOT, 'README.md');

  it('finds inline links, images and reference definitions, not those in code', () => {
    const md = 'See [a](a.md) and ![b](img/b.png "t").\n\n`[c](c.md)`\n\n```\n[d](d.md)\n```\n\n[e]: e.md#x\n';
    expect(linksOf(md).map((l) => l.target)).toEqual(['a.md', 'img/b.png', 'e.md#x']);
  });

  it('refuses a missing file and a missing anchor, accepts existing ones and leaves external links alone', () => {
    expect(problemOf(ROOT, readme, 'docs/no-such-file.md')).toMatch(/no file docs\/no-such-file\.md/);
    expect(problemOf(ROOT, readme, 'docs/api.md#no-such-heading')).toMatch(/no heading of docs\/api\.md has the anchor #no-such-heading/);
    expect(problemOf(ROOT, readme, 'docs/api.md#idempotency')).toBeNull();
    expect(problemOf(ROOT, join(ROOT, 'docs', 'api.md'), '#pagination')).toBeNull();
    expect(problemOf(ROOT, readme, 'https://example.com/#anything')).toBeNull();
  });
});

describe('the documentation', () => {
  it.each(MARKDOWN.map((f) => [relative(ROOT, f), f]))('%s: every relative link and anchor resolves', (_name, file) => {
    expect(brokenLinks(ROOT, file)).toEqual([]);
  });

  it('every docs citation in a code comment names an existing file and heading', () => {
    const broken = CODE.flatMap((file) =>
      citationsOf(readFileSync(file, 'utf8')).flatMap(({ line, target }) => {
        const problem = problemOf(ROOT, join(ROOT, 'README.md'), target);
        return problem ? [`${relative(ROOT, file)}:${line}: ${problem}`] : [];
      }),
    );
    expect(broken).toEqual([]);
  });
});
