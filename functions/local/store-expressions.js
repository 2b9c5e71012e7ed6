// The embedded store's parsed conditions, kept. dynalite parses every ConditionExpression, KeyConditionExpression and
// FilterExpression of every request with its PEG grammar (db/conditionParser.js), a fifth of the store's CPU under a CI
// batch (docs/benchmarks.md#where-the-time-goes). What a parse returns depends only on the expression's text, on the
// names and values it references and on whether it is a key condition; so the tree is kept under those, and a request
// with the same text and the same referenced values (`attribute_not_exists(pk)`, `#status IN (:from0)` with
// `:from0 = "queued"`, a project's `pk = :pk` read again) gets a copy of it instead of a parse. A copy, so that nothing
// one request does to its tree can reach another's. Like the parse, it marks the names and values it references as
// used, so an unused one is still refused. A parse that fails throws and is not kept; update expressions are not kept
// (dynalite writes into their trees while applying them). Plain JavaScript: the store child loads it without the
// TypeScript loader.
'use strict';

/** Placeholders: an expression has no string literals, so every `#name` and `:value` token is a reference. */
const TOKEN = /[#:][0-9a-zA-Z_]+/g;

/** Trees kept, the oldest dropped first. */
const MAX_KEPT = 5000;

/** A deep copy that keeps each object's prototype (dynalite builds some maps with Object.create(null)). */
function copyTree(value) {
  if (Array.isArray(value)) return value.map((item) => copyTree(item));
  if (value === null || typeof value !== 'object') return value;
  const out = Object.create(Object.getPrototypeOf(value));
  for (const key of Object.keys(value)) out[key] = copyTree(value[key]);
  return out;
}

/** Wraps `parser.parse` (a PEG parser called as `parse(text, {context})`) so that its trees are kept; once per parser. */
function keepParsedTrees(parser, maxKept = MAX_KEPT) {
  if (parser.rtsKeptTrees) return parser.rtsKeptTrees;
  const parse = parser.parse;
  const kept = new Map();
  const stats = { parsed: 0, reused: 0 };
  parser.parse = function keptParse(input, options) {
    const context = options && options.context;
    if (!context || typeof input !== 'string') return parse.call(this, input, options);
    const refs = input.match(TOKEN) || [];
    const names = refs.filter((r) => r[0] === '#');
    const values = refs.filter((r) => r[0] === ':');
    const key = JSON.stringify([
      context.isKeyCondition === true,
      input,
      names.map((r) => (context.attrNames ? context.attrNames[r] : undefined) ?? null),
      values.map((r) => (context.attrVals ? context.attrVals[r] : undefined) ?? null),
    ]);
    const tree = kept.get(key);
    if (tree !== undefined) {
      stats.reused++;
      for (const r of names) if (context.unusedAttrNames) delete context.unusedAttrNames[r];
      for (const r of values) if (context.unusedAttrVals) delete context.unusedAttrVals[r];
      return copyTree(tree);
    }
    const parsed = parse.call(this, input, options);
    stats.parsed++;
    if (kept.size >= maxKept) kept.delete(kept.keys().next().value);
    kept.set(key, copyTree(parsed));
    return parsed;
  };
  parser.rtsKeptTrees = { stats, kept };
  return parser.rtsKeptTrees;
}

/** Keeps the parsed conditions of the dynalite this process loads (the store child, or an in-process store). */
function keepParsedConditions() {
  return keepParsedTrees(require('dynalite/db/conditionParser'));
}

module.exports = { keepParsedConditions, keepParsedTrees, copyTree };
