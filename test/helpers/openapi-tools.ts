// OpenAPI tooling run as a child process (tsx): @redocly/openapi-core and openapi-typescript are ES modules that jest's
// CommonJS runtime cannot load. Subcommands print JSON on stdout:
//   lint <doc.json>                           problems of Redocly's `recommended` ruleset
//   check-examples <doc.json>                 problems of examples vs. their schemas (additional properties refused)
//   types <doc.json> <out.ts> [--check-sdk]   types by openapi-typescript (and a check that functions/sdk/api-types.d.ts
//                                             holds them)
//   sdk-types                                 writes functions/sdk/api-types.d.ts from the route table (npm run openapi:types)
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const SDK_TYPES = join(ROOT, 'functions', 'sdk', 'api-types.d.ts');

interface Problem {
  ruleId: string;
  severity: string;
  message: string;
  pointer: string;
}

async function lintDoc(doc: unknown, rules?: Record<string, unknown>): Promise<Problem[]> {
  const { createConfig, lintFromString } = await import('@redocly/openapi-core');
  const raw = rules ? { rules } : { extends: ['recommended'] };
  const config = await createConfig(raw as Parameters<typeof createConfig>[0]);
  const problems = await lintFromString({ source: JSON.stringify(doc), absoluteRef: join(ROOT, 'openapi.json'), config });
  return problems.map((p) => ({
    ruleId: p.ruleId,
    severity: p.severity,
    message: p.message,
    pointer: p.location.map((l) => ('pointer' in l ? l.pointer : '')).join(' '),
  }));
}

async function typesOf(doc: unknown): Promise<string> {
  const { default: openapiTS, astToString } = await import('openapi-typescript');
  const ast = await openapiTS(doc as Parameters<typeof openapiTS>[0], { defaultNonNullable: false });
  return astToString(ast);
}

/** The checked-in SDK types: a header, openapi-typescript's output, formatted as the repository formats. */
async function sdkTypes(types: string): Promise<string> {
  const prettier = await import('prettier');
  const header = [
    '// Types of the rts API, generated from GET /v1/openapi.json by openapi-typescript: `npm run openapi:types`.',
    '// Do not edit: test/unit/core/openapi-types.test.ts fails when this file is out of date.',
    '',
  ].join('\n');
  const options = (await prettier.resolveConfig(SDK_TYPES)) ?? {};
  return prettier.format(header + types, { ...options, filepath: SDK_TYPES });
}

/** Throws unless functions/sdk/api-types.d.ts holds exactly these types. */
async function checkSdkTypes(types: string): Promise<void> {
  if (readFileSync(SDK_TYPES, 'utf8') !== (await sdkTypes(types))) {
    throw new Error('functions/sdk/api-types.d.ts is out of date: run npm run openapi:types');
  }
}

async function main(): Promise<void> {
  const [command, ...args] = process.argv.slice(2);
  const read = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as unknown;
  if (command === 'lint') {
    process.stdout.write(JSON.stringify(await lintDoc(read(args[0]))));
  } else if (command === 'check-examples') {
    const rule = 'no-invalid-media-type-examples';
    const problems = await lintDoc(read(args[0]), { [rule]: { severity: 'error', allowAdditionalProperties: false } });
    process.stdout.write(JSON.stringify(problems.filter((p) => p.ruleId === rule)));
  } else if (command === 'types') {
    const types = await typesOf(read(args[0]));
    writeFileSync(args[1], types);
    if (args[2] === '--check-sdk') await checkSdkTypes(types);
  } else if (command === 'sdk-types') {
    const { openApiDocument } = await import('../../functions/core/openapi');
    const { routes } = await import('../../lib/routes');
    writeFileSync(SDK_TYPES, await sdkTypes(await typesOf(openApiDocument(routes))));
  } else {
    throw new Error(`unknown command ${command}`);
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
