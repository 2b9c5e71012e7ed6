// OpenAPI tooling run as a child process (tsx): @redocly/openapi-core and openapi-typescript are ES modules that jest's
// CommonJS runtime cannot load. lint and check-examples print JSON on stdout:
//   lint <doc.json>                           problems of Redocly's `recommended` ruleset
//   check-examples <doc.json>                 problems of examples vs. their schemas (additional properties refused)
//   sdk-types [--check]                       writes packages/sdk/src/generated/api.ts from the route table (npm run
//                                             openapi:types); with --check, writes nothing and fails when it is stale
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const SDK_TYPES = join(ROOT, 'packages', 'sdk', 'src', 'generated', 'api.ts');
const SDK_TYPES_NAME = 'packages/sdk/src/generated/api.ts';

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

/**
 * The SDK's generated types: a header, openapi-typescript's output for the document of the route table, formatted as
 * the repository formats.
 */
async function sdkTypes(): Promise<string> {
  const { openApiDocument } = await import('../../functions/core/openapi/document');
  const { routes } = await import('../../lib/routes');
  const prettier = await import('prettier');
  const header = [
    '// Types of the rts API, generated from its OpenAPI document (GET /v1/openapi.json) by openapi-typescript:',
    '// `npm run openapi:types`. Do not edit: test/unit/core/openapi/types.test.ts fails when this file is out of date.',
    '// The SDK names these shapes in ../types.ts.',
    '',
  ].join('\n');
  const options = (await prettier.resolveConfig(SDK_TYPES)) ?? {};
  return prettier.format(header + (await typesOf(openApiDocument(routes))), { ...options, filepath: SDK_TYPES });
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
  } else if (command === 'sdk-types') {
    const types = await sdkTypes();
    if (args[0] !== '--check') {
      mkdirSync(dirname(SDK_TYPES), { recursive: true });
      writeFileSync(SDK_TYPES, types);
    } else if (!existsSync(SDK_TYPES) || readFileSync(SDK_TYPES, 'utf8') !== types) {
      throw new Error(`${SDK_TYPES_NAME} is out of date: run npm run openapi:types`);
    }
  } else {
    throw new Error(`unknown command ${command}`);
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
