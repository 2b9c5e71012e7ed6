// The published JSON Schema of `rts apply` files (schemas/rts.schema.json), derived from the zod schemas by
// functions/cli/apply/file-schema.ts and formatted as the repository formats. Run as a script (prettier is an ES
// module jest's CommonJS runtime cannot load): `npm run schema:rts` writes the file; with --check it writes nothing
// and fails when the file is out of date (test/unit/cli/apply/load.test.ts runs that).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { JSON_SCHEMA_PATH, rtsJsonSchema } from '../../functions/cli/apply/file-schema';

const FILE = join(__dirname, '..', '..', JSON_SCHEMA_PATH);

async function main(): Promise<void> {
  const prettier = await import('prettier');
  const options = (await prettier.resolveConfig(FILE)) ?? {};
  const text = await prettier.format(JSON.stringify(rtsJsonSchema()), { ...options, filepath: FILE });
  if (process.argv[2] !== '--check') writeFileSync(FILE, text);
  else if (readFileSync(FILE, 'utf8') !== text) throw new Error(`${JSON_SCHEMA_PATH} is out of date: run npm run schema:rts`);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
