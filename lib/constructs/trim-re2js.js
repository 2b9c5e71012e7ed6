// re2js is one module, so esbuild cannot shake its classes apart: this removes, at bundle time, the classes and methods
// our one use of it never reaches. functions/core/replay/pattern.ts compiles a pattern (RE2JS.compile), reads its
// program size and runs `matcher(text).find()` and `end()`; that reaches RE2's compileImpl and matchMachineInput, and
// through them the parser, compiler, prefilter and the onepass, backtracking and NFA matchers, nothing below.
// Each part removed becomes a stub of functions/adapters/lambda-stubs.ts that throws naming it (re2jsLeftOut,
// re2jsUnreached). What stays has its Unicode tables' strings compressed (withCompressedTables).
// test/unit/lib/bundled-re2js.test.ts compares the bundled pattern module with the source.

/**
 * Classes: the DFA (RE2 runs it only for a match that asks no positions: RE2JS.test, testExact, matches; find asks for
 * the match's bounds), RE2Set (many patterns at once), RE2JS.translateRegExp's translator, the UTF-8 byte-array inputs
 * (the patterns are matched against strings).
 */
const RE2JS_LEFT_OUT = ['DFA', 'DFAState', 'RE2Set', 'TranslateRegExpString', 'MachineUTF8Input', 'Utf8MatcherInput'];

/**
 * Methods, by class: RE2's Go-style API (find*, replace*, match: the RE2JS and Matcher we call use
 * matchMachineInput), Matcher's group-text and replacement API, RE2JS's conveniences (test, exec, split, matchAll...),
 * and RE2Set's compiling and matching.
 */
const RE2JS_METHODS_LEFT_OUT = {
  RE2: [
    ...['static initTest', 'static compile', 'static compilePOSIX', 'static match', 'match', 'matchWithGroup', 'matchUTF8'],
    ...['replaceAll', 'replaceFirst', 'replaceAllFunc', 'pad', 'allMatches', 'find', 'findIndex', 'findSubmatch', 'findSubmatchIndex'],
    ...['findUTF8', 'findUTF8Index', 'findUTF8Submatch', 'findUTF8SubmatchIndex', 'findAll', 'findAllIndex', 'findAllSubmatch'],
    ...['findAllSubmatchIndex', 'findAllUTF8', 'findAllUTF8Index', 'findAllUTF8Submatch', 'findAllUTF8SubmatchIndex'],
  ],
  Matcher: [
    ...['static quoteReplacement', 'group', 'getNamedGroups', 'substring', 'matchArray', 'namedGroupsObject', 'appendTail'],
    ...['appendReplacement', 'appendReplacementInternalJava', 'appendReplacementInternalJs', 'appendReplacementFunc'],
    ...['replaceAll', 'replaceFirst', 'replace'],
  ],
  RE2JS: [
    ...['static quote', 'static quoteReplacement', 'static translateRegExp', 'static matches', 'static initTest'],
    ...['matches', 'test', 'testExact', 'exec', 'split', 'matchAll', 'equals'],
  ],
  Machine: ['matchSet'],
  Compiler: ['static compileSet'],
};

/** The lines of top-level class `name` in `lines`: `var <name> = class ...` to the first `};` at a line's start. */
function classLines(lines, name) {
  const start = lines.findIndex((line) => line.startsWith(`var ${name} = class `));
  const end = start < 0 ? -1 : lines.findIndex((line, i) => i > start && line === '};');
  if (end < 0 || lines.slice(start + 1, end).some((line) => /^(var|const|let|function|class|export) /.test(line))) {
    throw new Error(`re2js: no top-level class ${name} of the expected shape (lib/constructs/trim-re2js.js)`);
  }
  return { start, end };
}

/** Replaces method `spec` (`name` or `static name`) of the class at [start, end) by one that throws; returns lines removed. */
function stubMethod(lines, className, { start, end }, spec) {
  const [, isStatic, name] = /^(static )?(\w+)$/.exec(spec);
  const header = new RegExp(`^\\t${isStatic ?? ''}\\*?${name}\\(.*\\) \\{$`);
  const first = lines.findIndex((line, i) => i > start && i < end && header.test(line));
  const last = first < 0 ? -1 : lines.findIndex((line, i) => i > first && line === '\t}');
  if (last < 0 || last > end || lines.slice(first + 1, last).some((line) => line !== '' && !line.startsWith('\t\t'))) {
    throw new Error(`re2js: no method ${className}.${spec} of the expected shape (lib/constructs/trim-re2js.js)`);
  }
  const stub = `\t${isStatic ?? ''}${name}() {\n\t\tthrow re2jsUnreached(${JSON.stringify(`${className}.${name}`)});\n\t}`;
  lines.splice(first, last - first + 1, stub);
  return last - first;
}

/** A table's encoded ranges or case orbits, as re2js's build writes each: one string of its own 64-letter alphabet. */
const TABLE_CALL = /\b(decodeRanges|decodeOrbit)\("([A-Za-z0-9+-]*)"/g;
/** re2js's Unicode tables hold ~250 of them (~43 KB); fewer means its build changed shape. */
const MIN_TABLES = 100;

/**
 * The Unicode tables' strings (categories, scripts, case folding: ~43 KB, the largest part of re2js) compressed into
 * one brotli blob (~17 KB as base64), each call site reading its string from it by number. re2js decodes a table only
 * when a pattern first needs it; the blob is decompressed then, once (~0.4 ms). The decoded strings are the source's,
 * byte for byte (test/unit/lib/bundled-re2js.test.ts).
 */
function withCompressedTables(lines) {
  const { brotliCompressSync, constants } = require('node:zlib');
  const strings = [];
  const out = lines.map((line) =>
    line.replace(TABLE_CALL, (_call, fn, encoded) => {
      strings.push(encoded);
      return `${fn}(re2jsTable(${strings.length - 1})`;
    }),
  );
  if (strings.length < MIN_TABLES || out.some((line) => /\bdecode(Ranges|Orbit)\("/.test(line))) {
    throw new Error(`re2js: its Unicode tables are not of the expected shape (lib/constructs/trim-re2js.js)`);
  }
  const blob = brotliCompressSync(strings.join('\n'), { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).toString('base64');
  return [
    `let re2jsTables;`,
    // node:zlib is required then, not at the function's init (the bundles are CommonJS, where esbuild keeps the call).
    `const re2jsTable = (i) => (re2jsTables ??= require('node:zlib').brotliDecompressSync(Buffer.from(${JSON.stringify(blob)}, 'base64')).toString('latin1').split('\\n'))[i];`,
    ...out,
  ];
}

/**
 * re2js's module without RE2JS_LEFT_OUT and RE2JS_METHODS_LEFT_OUT, its Unicode tables compressed. Throws when a part
 * is not found in the expected shape, so that when re2js changes its build the bundling fails rather than keeping or
 * half-cutting a part.
 */
function withoutUnusedRe2js(source) {
  const lines = source.split('\n');
  for (const [className, methods] of Object.entries(RE2JS_METHODS_LEFT_OUT)) {
    for (const spec of methods) stubMethod(lines, className, classLines(lines, className), spec);
  }
  for (const name of RE2JS_LEFT_OUT) {
    const { start, end } = classLines(lines, name);
    lines.splice(start, end - start + 1, `var ${name} = /* @__PURE__ */ re2jsLeftOut(${JSON.stringify(name)});`);
  }
  return [
    `import { re2jsLeftOut, re2jsUnreached } from ${JSON.stringify(require.resolve('../../functions/adapters/lambda-stubs.ts'))};`,
    ...withCompressedTables(lines),
  ].join('\n');
}

module.exports = { RE2JS_LEFT_OUT, RE2JS_METHODS_LEFT_OUT, withoutUnusedRe2js };
