// `rts traces upload <file...>`: uploads trace files (native JSON, a JSON array of traces, or OTLP/JSON).
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { cliClient } from './connection';
import { sha256Hex } from '../core/json';
import { jsonText, oneLine, safeWriter } from './output';

const USAGE = `Usage: rts traces upload <file...> [--json]

Uploads trace files: native JSON, a JSON array of traces, or OTLP/JSON. Each trace is sent with an
Idempotency-Key derived from its content, so re-running an upload is safe. --json prints the
results as JSON. Exit 0 when every trace was stored, 1 when one could not be.

Environment: RTS_API_URL, RTS_API_KEY, RTS_PROJECT_ID (each one unset is read from the local
service's <RTS_DATA_DIR or .rts>/credentials.json).
`;

/** Runs `rts traces <argv>`; everything it prints goes through `safeWriter` (trace names and messages are user data). */
export async function runTraces(argv: string[]): Promise<number> {
  const stdout = safeWriter(process.stdout);
  const stderr = safeWriter(process.stderr);
  const [sub, ...rest] = argv;
  if (sub === '--help' || sub === '-h' || sub === 'help') {
    stdout.write(USAGE);
    return 0;
  }
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help || sub !== 'upload' || positionals.length === 0) {
    (values.help ? stdout : stderr).write(USAGE);
    return values.help ? 0 : 2;
  }
  const client = cliClient();
  const results: unknown[] = [];
  let failures = 0;
  for (const file of positionals) {
    let docs: unknown[];
    try {
      const parsed = JSON.parse(readFileSync(file, 'utf8')) as unknown;
      docs = Array.isArray(parsed) ? parsed : [parsed];
    } catch (err) {
      stderr.write(`${file}: ${oneLine((err as Error).message)}\n`);
      failures++;
      continue;
    }
    for (const [i, doc] of docs.entries()) {
      try {
        // The same file content always maps to the same key: re-running an upload is safe.
        const key = `upload:${sha256Hex(JSON.stringify(doc))}`;
        const res = await client.uploadTrace<Record<string, unknown>>(doc, key);
        results.push({ file, index: i, status: res.status, ...res.body });
        if (!values.json) {
          // An OTLP export answers 200 with a result per trace (created, updated, unchanged, pending, rejected); a native
          // trace 201 when created and 200 when it was there already.
          const list = (res.body.traces as Record<string, unknown>[] | undefined) ?? [res.body];
          for (const t of list) {
            const result = typeof t.result === 'string' ? t.result : res.status === 201 ? 'created' : 'exists';
            const what = t.result === 'rejected' ? `${t.message ?? ''}` : `(${t.step_count ?? 0} steps) ${t.name ?? ''}`;
            stdout.write(`${file}: ${oneLine(result).padEnd(9)} ${t.trace_id ?? t.otlp_trace_id} ${oneLine(what)}\n`);
          }
        }
      } catch (err) {
        failures++;
        stderr.write(`${file}${docs.length > 1 ? `[${i}]` : ''}: ${oneLine((err as Error).message)}\n`);
        const body = (err as { body?: { error?: { details?: { path?: string; message: string }[] } } }).body;
        for (const d of body?.error?.details ?? []) stderr.write(`  ${oneLine(d.path ?? '')}: ${oneLine(d.message)}\n`);
      }
    }
  }
  if (values.json) stdout.write(`${jsonText(results)}\n`);
  return failures ? 1 : 0;
}
