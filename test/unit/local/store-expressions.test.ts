// The embedded store's kept condition trees (functions/local/store-expressions.js): every request validated with them
// comes out as dynalite's own parse would make it (trees, errors, unused names and values), and through a real
// dynalite the same expression text with other values, or with a value left unused, is judged afresh.
import fc from 'fast-check';
import { DynamoDBClient, PutItemCommand, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { startDynalite, type TestTable } from '../../helpers/dynalite';

/* eslint-disable @typescript-eslint/no-require-imports */
const conditionParser = require('dynalite/db/conditionParser') as { parse: (input: string, options: unknown) => unknown };
const { validateExpressions } = require('dynalite/validations') as { validateExpressions: (data: Request) => string | undefined };
const { keepParsedTrees, keepParsedConditions, copyTree } = require('../../../functions/local/store-expressions') as {
  keepParsedTrees: (parser: object, max?: number) => { stats: { parsed: number; reused: number }; kept: Map<string, unknown> };
  keepParsedConditions: () => { stats: { parsed: number; reused: number } };
  copyTree: <T>(v: T) => T;
};
/* eslint-enable @typescript-eslint/no-require-imports */

type Value = Record<string, unknown>;
interface Request {
  ConditionExpression?: string;
  KeyConditionExpression?: string;
  FilterExpression?: string;
  ExpressionAttributeNames?: Record<string, string>;
  ExpressionAttributeValues?: Record<string, Value>;
  [parsed: string]: unknown;
}

// The parser as dynalite loads it, and the same parser keeping its trees: swapped in and out per request.
const original = conditionParser.parse;
const { stats } = keepParsedConditions();
const keeping = conditionParser.parse;

/** What dynalite's validation makes of a request (an error, or the request with its parsed trees), with one parser. */
function validate(request: Request, parse: typeof original): { error: string | undefined; request: Request } {
  const copy = copyTree(request);
  conditionParser.parse = parse;
  try {
    return { error: validateExpressions(copy), request: copy };
  } finally {
    conditionParser.parse = keeping;
  }
}

const NAMES = ['#a', '#b', '#status', '#n1'];
const VALUES = [':a', ':b', ':v1', ':from0'];
const name = fc.constantFrom(...NAMES, 'pk', 'sk', 'size', 'status');
const value = fc.constantFrom(...VALUES);
const operand = fc.oneof(
  name,
  value,
  fc.tuple(name).map(([n]) => `size(${n})`),
);
const comparison = fc.tuple(operand, fc.constantFrom('=', '<>', '<', '<=', '>', '>='), operand).map(([x, op, y]) => `${x} ${op} ${y}`);
const leaf = fc.oneof(
  comparison,
  fc.tuple(fc.constantFrom('attribute_exists', 'attribute_not_exists'), name).map(([f, n]) => `${f}(${n})`),
  fc.tuple(fc.constantFrom('begins_with', 'contains', 'attribute_type'), name, value).map(([f, n, v]) => `${f}(${n}, ${v})`),
  fc.tuple(name, fc.array(value, { minLength: 1, maxLength: 3 })).map(([n, vs]) => `${n} IN (${vs.join(', ')})`),
  fc.tuple(name, value, value).map(([n, x, y]) => `${n} BETWEEN ${x} AND ${y}`),
);
const { condition } = fc.letrec<{ condition: string }>((tie) => ({
  condition: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.tuple(tie('condition'), fc.constantFrom('AND', 'OR'), tie('condition')).map(([x, op, y]) => `${x} ${op} ${y}`),
    tie('condition').map((c) => `NOT (${c})`),
    tie('condition').map((c) => `(${c})`),
  ),
}));
const attributeValue = fc.oneof(
  fc.constantFrom('queued', 'running', 'RUN#x', 'S', 'N', 'a', 'b').map((s) => ({ S: s })),
  fc.integer({ min: -3, max: 3 }).map((n) => ({ N: String(n) })),
  fc.constant({ BOOL: true }),
  fc.constant({ NULL: true }),
);
// Each placeholder defined or not (an undefined one is an error), so some requests leave some unused.
const names = fc
  .subarray(NAMES)
  .chain((keys) =>
    fc.tuple(...keys.map(() => fc.constantFrom('status', 'pk', 'name', 'count'))).map((vs) => Object.fromEntries(keys.map((k, i) => [k, vs[i]]))),
  );
const values = fc
  .subarray(VALUES)
  .chain((keys) => fc.tuple(...keys.map(() => attributeValue)).map((vs) => Object.fromEntries(keys.map((k, i) => [k, vs[i]]))));
// Requests sharing one expression text with other names and values, as a service's requests do.
const requests = fc
  .record({
    expression: condition,
    kind: fc.constantFrom('ConditionExpression', 'KeyConditionExpression', 'FilterExpression'),
    refs: fc.array(fc.tuple(names, values), { minLength: 1, maxLength: 4 }),
  })
  .map(({ expression, kind, refs }) =>
    refs.map(([n, v]) => {
      const r: Request = { [kind]: expression };
      if (Object.keys(n).length > 0) r.ExpressionAttributeNames = n;
      if (Object.keys(v).length > 0) r.ExpressionAttributeValues = v;
      return r;
    }),
  );

describe('kept condition trees', () => {
  it('validates every generated request as a fresh parse does, the first time and when reused', () => {
    // Prepare
    const before = { ...stats };
    let compared = 0;
    // Act / Assess
    fc.assert(
      fc.property(requests, (rs) => {
        for (const r of [...rs, ...rs]) {
          compared++;
          expect(validate(r, keeping)).toStrictEqual(validate(r, original));
        }
      }),
      { numRuns: 400 },
    );
    // Some generated requests were valid, so trees were kept and reused.
    expect(compared).toBeGreaterThanOrEqual(800);
    expect(stats.reused - before.reused).toBeGreaterThan(50);
  });

  it('keeps a tree per referenced value: the same text with another value is parsed again', () => {
    // Prepare
    const parser = { parse: original };
    const kept = keepParsedTrees(parser);
    const context = (from: string) => ({
      attrNames: { '#status': 'status' },
      attrVals: { ':from0': { S: from }, ':unrelated': { S: Math.random().toString() } },
      unusedAttrNames: { '#status': true },
      unusedAttrVals: { ':from0': true, ':unrelated': true },
    });
    const a = context('queued');
    const b = context('running');
    const c = context('queued');
    // Act
    const trees = [a, b, c].map((ctx) => parser.parse('#status IN (:from0)', { context: ctx }));
    // Assess: `:unrelated` is not in the text, so it is neither in the key nor marked used.
    expect(kept.stats).toEqual({ parsed: 2, reused: 1 });
    expect(trees[2]).toStrictEqual(trees[0]);
    expect(trees[1]).not.toStrictEqual(trees[0]);
    expect([a, b, c].map((ctx) => [ctx.unusedAttrNames, ctx.unusedAttrVals])).toEqual(Array(3).fill([{}, { ':unrelated': true }]));
  });

  it('hands out copies: changing a tree it returned changes no later one', () => {
    // Prepare
    const parser = { parse: original };
    keepParsedTrees(parser);
    const parse = () =>
      parser.parse('attribute_not_exists(pk) AND #s = :v', {
        context: { attrNames: { '#s': 's' }, attrVals: { ':v': { S: 'x' } }, unusedAttrNames: {}, unusedAttrVals: {}, isReserved: () => false },
      }) as { expression: { args: unknown[] } };
    const pristine = parse();
    const expected = copyTree(pristine);
    // Act
    pristine.expression.args.length = 0;
    const reused = parse();
    reused.expression.args.length = 0;
    // Assess
    expect(parse()).toStrictEqual(expected);
  });

  it('drops the oldest tree past its limit', () => {
    // Prepare
    const parser = { parse: original };
    const kept = keepParsedTrees(parser, 2);
    const parse = (text: string) => parser.parse(text, { context: { unusedAttrNames: {}, unusedAttrVals: {}, isReserved: () => false } });
    // Act
    for (const text of ['attribute_exists(a)', 'attribute_exists(b)', 'attribute_exists(c)', 'attribute_exists(a)']) parse(text);
    // Assess
    expect(kept.stats).toEqual({ parsed: 4, reused: 0 });
    expect(kept.kept.size).toBe(2);
  });
});

describe('kept condition trees in the store', () => {
  let table: TestTable;
  let client: DynamoDBClient;
  beforeAll(async () => {
    table = await startDynalite('rts-store-expressions');
    client = new DynamoDBClient({ endpoint: table.endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  });
  afterAll(async () => {
    client.destroy();
    await table.close();
  });

  const key = (id: string) => ({ pk: { S: `T#${id}` }, sk: { S: 'META' } });
  const moveFrom = (id: string, from: string) =>
    client.send(
      new UpdateItemCommand({
        TableName: table.tableName,
        Key: key(id),
        UpdateExpression: 'SET #status = :to',
        ConditionExpression: '#status IN (:from0)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':to': { S: `${from}+` }, ':from0': { S: from } },
      }),
    );

  it('judges the same condition text with other values afresh', async () => {
    // Prepare
    for (const id of ['one', 'two']) {
      await client.send(new PutItemCommand({ TableName: table.tableName, Item: { ...key(id), status: { S: 'queued' } } }));
    }
    // Act
    await moveFrom('one', 'queued');
    const wrongState = moveFrom('two', 'running');
    // Assess
    await expect(wrongState).rejects.toThrow('The conditional request failed');
    await expect(moveFrom('two', 'queued')).resolves.toBeDefined();
    await expect(moveFrom('one', 'queued')).rejects.toThrow('The conditional request failed');
  });

  it('still refuses a value left unused by an expression it parsed before', async () => {
    // Prepare
    const put = (values?: Record<string, Value>) =>
      client.send(
        new PutItemCommand({
          TableName: table.tableName,
          Item: { ...key(Math.random().toString()), status: { S: 'queued' } },
          ConditionExpression: 'attribute_not_exists(pk)',
          ...(values ? { ExpressionAttributeValues: values as never } : {}),
        }),
      );
    await put();
    // Act
    const unused = put({ ':extra': { S: 'x' } });
    // Assess
    await expect(unused).rejects.toThrow('Value provided in ExpressionAttributeValues unused in expressions: keys: {:extra}');
  });
});
