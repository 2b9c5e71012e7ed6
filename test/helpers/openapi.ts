// Runs the OpenAPI tooling (test/helpers/openapi-tools.ts) in a child process and maps what it finds back to routes.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const TOOL = join(__dirname, 'openapi-tools.ts');

export interface LintProblem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  pointer: string;
}

/** Runs a subcommand of the tooling with tsx; throws with its stderr when it fails. */
export function openApiTool(...args: string[]): string {
  try {
    return execFileSync(process.execPath, ['--import', 'tsx', TOOL, ...args], {
      cwd: ROOT,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (err) {
    const e = err as { stderr?: string; message: string };
    throw new Error(`openapi-tools ${args[0]} failed: ${e.stderr || e.message}`);
  }
}

/** Writes `doc` to a temporary file for the duration of `fn`. */
export function withDocFile<T>(doc: unknown, fn: (file: string, dir: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), 'rts-openapi-'));
  try {
    const file = join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(doc));
    return fn(file, dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** What Redocly's `recommended` ruleset finds in the document (errors and warnings). */
export function lintProblems(doc: unknown): LintProblem[] {
  return withDocFile(doc, (file) => JSON.parse(openApiTool('lint', file)) as LintProblem[]);
}

/** One answer of the service: the route row it matched (path template), its status, content type and parsed body. */
export interface Observation {
  method: string;
  /** The route row's path, e.g. /v1/runs/{run_id}; null when no route matched (route_not_found, method_not_allowed). */
  path: string | null;
  status: number;
  contentType: string;
  body: unknown;
}

const label = (o: Observation) => `${o.method} ${o.path ?? '(no route)'} -> ${o.status}`;
type Doc = { paths: Record<string, Record<string, { responses: Record<string, any> }>> };

/**
 * Checks every observation against the document: its status (and content type) must be documented for its operation,
 * and its body must validate against the schema documented there, with no undocumented property (Redocly's JSON
 * Schema 2020-12 validator, formats included). Answers outside any route are checked against the Error schema.
 * Returns one line per problem: route, status and the validator's message with the instance path.
 */
export function contractProblems(doc: Doc, observations: Observation[]): string[] {
  const copy = structuredClone(doc);
  const errorBody = { content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
  copy.paths['/x-unrouted'] = { get: { responses: { default: { description: 'No route', ...errorBody } } } };
  const problems: string[] = [];
  const byName = new Map<string, Observation>();
  observations.forEach((o, i) => {
    const operation = o.path ? copy.paths[o.path]?.[o.method.toLowerCase()] : copy.paths['/x-unrouted'].get;
    const response = o.path ? operation?.responses[String(o.status)] : operation?.responses.default;
    if (!operation) return void problems.push(`${label(o)}: no such operation in the document`);
    if (!response) return void problems.push(`${label(o)}: status not documented for this operation`);
    if (o.body === undefined) {
      if (response.content) problems.push(`${label(o)}: documented with a body, answered without one`);
      return;
    }
    const media = response.content?.[o.contentType];
    if (!media) return void problems.push(`${label(o)}: content type ${o.contentType} not documented`);
    const name = `seen${i}`;
    media.examples = { ...media.examples, [name]: { value: o.body } };
    byName.set(name, o);
  });
  const found = withDocFile(copy, (file) => JSON.parse(openApiTool('check-examples', file)) as LintProblem[]);
  for (const p of found) {
    const m = /\/examples\/(seen\d+)\/value([^ ]*)/.exec(p.pointer);
    const o = m ? byName.get(m[1]) : undefined;
    problems.push(o ? `${label(o)}: ${p.message} (at ${decodeURIComponent(m![2]) || '/'})` : `${p.ruleId}: ${p.message} ${p.pointer}`);
  }
  return problems;
}
