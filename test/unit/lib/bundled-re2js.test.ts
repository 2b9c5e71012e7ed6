// The bundles carry re2js without the parts functions/core/replay/pattern.ts never reaches (lib/constructs/trim-re2js.js):
// the pattern module bundled that way answers as the source does, pattern for pattern. re2js is a file of its own
// beside the bundle, loaded on the first pattern compiled.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { brotliDecompressSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { build } from 'esbuild';
import fc from 'fast-check';
import { esbuildOptions } from '../../../lib/constructs/bundling';
import * as source from '../../../functions/core/replay/pattern';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { plugins, RE2JS_FILE } = require('../../../lib/constructs/esbuild-run.js') as { plugins: import('esbuild').Plugin[]; RE2JS_FILE: string };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { RE2JS_LEFT_OUT, RE2JS_METHODS_LEFT_OUT, withoutUnusedRe2js } = require('../../../lib/constructs/trim-re2js.js') as {
  RE2JS_LEFT_OUT: string[];
  RE2JS_METHODS_LEFT_OUT: Record<string, string[]>;
  withoutUnusedRe2js: (source: string) => string;
};
const RE2JS_SOURCE = readFileSync(require.resolve('re2js').replace(/index\.cjs$/, 'index.js'), 'utf8');
/** Every named table of re2js's source (categories, scripts, their fold tables, the older property names). */
const TABLE_NAMES = [...new Set([...RE2JS_SOURCE.matchAll(/^\t\t(\w+): \(\) => new UnicodeRangeTable/gm)].map((m) => m[1]))];
/** Code points across the planes, none a surrogate: every 211th up to U+2FFFF, and the ones case folding relates. */
const SAMPLE = [
  ...Array.from({ length: 0x30000 / 211 }, (_, i) => i * 211).filter((c) => c < 0xd800 || c > 0xdfff),
  ...[0x4b, 0x6b, 0x212a, 0x53, 0x73, 0x17f, 0x1c4, 0x1c5, 0x1c6, 0x3a3, 0x3c2, 0x3c3, 0x1e9e, 0xdf],
].map((c) => String.fromCodePoint(c));

type PatternModule = typeof source;

/** What a pattern module answers for a pattern and texts: its error, or whether each text matches. */
function answers(module: PatternModule, pattern: string, texts: string[]): unknown {
  const error = module.patternError(pattern);
  const compiled = module.compilePattern(pattern);
  return { error, limit: compiled?.textLimit, matches: compiled ? texts.map((t) => compiled.test(t)) : null };
}

const PATTERNS = [
  'refund',
  '^refund$',
  '(?i)REFUND\\s+\\d+',
  '\\bacct_[0-9a-f]{8}\\b',
  '[[:alpha:]]+@[[:alnum:].]+',
  '\\p{Greek}+',
  '\\pL\\pN',
  '(?s)a.b',
  '(?m)^x$',
  '(a|b){50}[cd]',
  '(a+)+$',
  'foo|bar|baz|qux',
  '(?:https?://)?[a-z]+\\.example\\.com(/\\S*)?',
  '[^\\x00-\\x7f]',
  'ΣΑΣ(?i)σας',
  '\\Qa.b\\E',
  '(?P<name>x)y',
  '(a)\\1',
  '(?=x)',
  '[z-a]',
  '(',
  'x{1001}',
  '(a|b){300}',
];
const TEXTS = ['', 'refund', 'REFUND  42', 'acct_0123abcd ok', 'me@host.example', 'αβγ', 'x1', 'a\nb', 'y\nx\n', 'ab'.repeat(40) + 'c'];

describe('re2js in the bundles', () => {
  let outdir: string;
  let bundled: PatternModule;
  let code: string;
  beforeAll(async () => {
    // Prepare: pattern.ts bundled as the functions are, readable
    outdir = mkdtempSync(path.join(tmpdir(), 'rts-re2js-'));
    await build({
      ...esbuildOptions(),
      minify: false,
      sourcemap: false,
      plugins,
      outdir,
      entryPoints: { pattern: 'functions/core/replay/pattern.ts' },
    });
    code = readFileSync(path.join(outdir, RE2JS_FILE), 'utf8');
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    bundled = require(path.join(outdir, 'pattern.js')) as PatternModule;
  }, 60_000);
  afterAll(() => rmSync(outdir, { recursive: true, force: true }));

  it('keeps re2js out of the bundle, in a file beside it that loads on the first pattern compiled', () => {
    // A fresh process: jest's module registry does not show what Node's require loaded.
    const probe = `
      const loaded = () => Object.keys(require.cache).some((f) => f.endsWith(${JSON.stringify(path.sep + RE2JS_FILE)}));
      const m = require(${JSON.stringify(path.join(outdir, 'pattern.js'))});
      const atInit = loaded();
      const error = m.patternError('a+');
      process.stdout.write(JSON.stringify({ atInit, error, afterCompile: loaded() }));`;

    expect(JSON.parse(execFileSync(process.execPath, ['-e', probe], { encoding: 'utf8' }))).toEqual({
      atInit: false,
      error: null,
      afterCompile: true,
    });
    expect(readFileSync(path.join(outdir, 'pattern.js'), 'utf8')).not.toMatch(/class RE2JS|decodeRanges|re2jsUnreached/);
  });

  it('fails the build on a static import of re2js, which would load it at init', async () => {
    const result = build({
      ...esbuildOptions(),
      logLevel: 'silent',
      write: false,
      plugins,
      stdin: { contents: "import { RE2JS } from 're2js'; export const p = RE2JS.compile('a');", resolveDir: process.cwd(), loader: 'ts' },
    });

    await expect(result).rejects.toThrow(/require it on first use/);
  });

  it.each(RE2JS_LEFT_OUT)('carries no class %s, a stub where it is referenced', (name) => {
    expect(code).not.toMatch(new RegExp(`var ${name} = class`));
  });

  it('carries a stub in place of each method left out, throwing with its name', () => {
    const methods = Object.entries(RE2JS_METHODS_LEFT_OUT).flatMap(([cls, specs]) => specs.map((spec) => `${cls}.${spec.replace('static ', '')}`));

    expect(methods.filter((m) => !code.includes(`throw re2jsUnreached(${JSON.stringify(m)})`))).toEqual([]);
  });

  it("carries re2js's Unicode table strings compressed, decoding to the source's, byte for byte and in order", () => {
    const trimmed = withoutUnusedRe2js(RE2JS_SOURCE);
    const blob = /Buffer\.from\("([A-Za-z0-9+/=]+)", 'base64'\)/.exec(trimmed)?.[1];
    const original = [...RE2JS_SOURCE.matchAll(/\bdecode(?:Ranges|Orbit)\("([^"]*)"/g)].map((m) => m[1]);

    expect(
      brotliDecompressSync(Buffer.from(blob ?? '', 'base64'))
        .toString('latin1')
        .split('\n'),
    ).toEqual(original);
    expect(original.length).toBeGreaterThan(200);
    expect(code).not.toMatch(/decode(Ranges|Orbit)\("/);
  });

  it('answers as the source for every named table, character by character, and with case folding', () => {
    expect(TABLE_NAMES.length).toBeGreaterThan(150);
    for (const name of TABLE_NAMES) {
      for (const pattern of [`^\\p{${name}}$`, `^(?i)\\P{${name}}$`]) {
        expect([pattern, answers(bundled, pattern, SAMPLE)]).toEqual([pattern, answers(source, pattern, SAMPLE)]);
      }
    }
    for (const pattern of ['(?i)^k$', '(?i)^s$', '(?i)^ǆ$', '(?i)^σ$', '(?i)^ß$', '[[:print:]]', '[[:^graph:]]', '(?i)[[:upper:]]']) {
      expect([pattern, answers(bundled, pattern, SAMPLE)]).toEqual([pattern, answers(source, pattern, SAMPLE)]);
    }
  });

  it('answers as the source on patterns of every kind (classes, case folding, Unicode, repeats, errors) and texts', () => {
    for (const pattern of PATTERNS) expect([pattern, answers(bundled, pattern, TEXTS)]).toEqual([pattern, answers(source, pattern, TEXTS)]);
  });

  it('answers as the source past the text limit, where the match is read up to the cut (Matcher.end)', () => {
    const long = 'a'.repeat(300_000) + 'END';

    for (const pattern of ['END$', 'a{5}', '(a|b){150}$', 'a$']) {
      expect([pattern, answers(bundled, pattern, [long])]).toEqual([pattern, answers(source, pattern, [long])]);
    }
  });

  it('answers as the source on generated patterns and texts', () => {
    const token = fc.constantFrom(
      'a',
      'b',
      'é',
      'Σ',
      '.',
      '*',
      '+',
      '?',
      '|',
      '(',
      ')',
      '[',
      ']',
      '^',
      '$',
      '\\d',
      '\\w',
      '\\b',
      '{2}',
      '(?i)',
      '\\pL',
      '-',
    );
    fc.assert(
      fc.property(
        fc.array(token, { maxLength: 12 }),
        fc.array(fc.string({ unit: fc.constantFrom('a', 'b', 'A', 'é', 'É', 'σ', '1', ' ', '\n') }), { maxLength: 4 }),
        (tokens, texts) => {
          const pattern = tokens.join('');
          expect(answers(bundled, pattern, texts)).toEqual(answers(source, pattern, texts));
        },
      ),
      { numRuns: 400 },
    );
  });
});
