// Reads an `rts apply` file (YAML or JSON): parses it keeping positions, puts environment variables in place of
// `${NAME}`, and validates it against the file's schema and each campaign against the API's, every problem named by
// file, line, column and field.
import { readFileSync } from 'node:fs';
import { isMap, isSeq, LineCounter, parseDocument, type Document, type Node } from 'yaml';
import { campaignInputSchema, type CampaignInput } from '../../core/campaigns/schema';
import { CAMPAIGN_FIELDS, rtsFileSchema, type EvalSetEntry } from './file-schema';

export type FieldPath = (string | number)[];

/** One thing wrong with the file, where it is. */
export interface ConfigProblem {
  file: string;
  line: number;
  column: number;
  /** The field as a path: `campaigns[0].mutations[2].tool`. */
  field: string;
  message: string;
}

/** The file cannot be applied; `problems` says why, each problem at its place. */
export class ConfigError extends Error {
  readonly problems: ConfigProblem[];

  constructor(problems: ConfigProblem[]) {
    const sorted = [...problems].sort((a, b) => a.line - b.line || a.column - b.column);
    super(sorted.map((p) => formatProblem(p)).join('\n'));
    this.problems = sorted;
  }
}

/** `rts.yaml:12:7: campaigns[0].target.url: <message>`. */
export const formatProblem = (p: ConfigProblem): string =>
  `${p.file}${p.line ? `:${p.line}:${p.column}` : ''}: ${p.field ? `${p.field}: ` : ''}${p.message}`;

/** `campaigns[0].mutations[2].tool`. */
export const fieldName = (path: FieldPath): string => path.map((seg, i) => (typeof seg === 'number' ? `[${seg}]` : `${i ? '.' : ''}${seg}`)).join('');

/** A campaign as the file declares it, its secrets in place. */
export interface DesiredCampaign {
  /** Its position in the file's `campaigns`. */
  index: number;
  name: string;
  /** The definition as the API takes it (the entry without `eval_set`). */
  definition: CampaignInput;
  /** The definition as the API reads it: defaults applied. */
  normalized: CampaignInput;
  evalSet?: EvalSetEntry;
}

export interface LoadedFile {
  /** The file as named on the command line. */
  file: string;
  campaigns: DesiredCampaign[];
  /** Values taken from the environment: never printed. */
  secrets: string[];
  /** The problem at a field of the file. */
  problemAt(path: FieldPath, message: string): ConfigProblem;
}

const ENV_REF = /\$(\$?)\{([^}:]*)(?::-([^}]*))?\}/g;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Reads and validates the file; throws ConfigError (never anything else) when it cannot be applied. */
export function loadFile(file: string, env: NodeJS.ProcessEnv = process.env): LoadedFile {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new ConfigError([{ file, line: 0, column: 0, field: '', message: `cannot read the file: ${(err as Error).message}` }]);
  }
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length) {
    throw new ConfigError(
      doc.errors.map((e) => {
        const pos = lineCounter.linePos(e.pos[0]);
        return { file, line: pos.line, column: pos.col, field: '', message: e.message.split('\n')[0] };
      }),
    );
  }
  const problemAt = (path: FieldPath, message: string): ConfigProblem => {
    const pos = lineCounter.linePos(offsetOf(doc, path));
    return { file, line: pos.line, column: pos.col, field: fieldName(path), message };
  };
  const problems: ConfigProblem[] = [];
  const secrets: string[] = [];
  const value = substitute(doc.toJS({ maxAliasCount: 100 }) as unknown, [], env, secrets, (path, message) => problems.push(problemAt(path, message)));
  const parsed = rtsFileSchema.safeParse(value);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const path = issue.path as FieldPath;
      if (issue.code === 'unrecognized_keys') for (const key of issue.keys) problems.push(problemAt([...path, key], 'unknown field'));
      else problems.push(problemAt(path, issue.message));
    }
    throw new ConfigError(problems);
  }
  const seen = new Map<string, number>();
  const campaigns: DesiredCampaign[] = [];
  parsed.data.campaigns.forEach((entry, index) => {
    const at = (path: FieldPath) => ['campaigns', index, ...path];
    const { eval_set: evalSet, ...definition } = entry;
    if (seen.has(entry.name))
      problems.push(problemAt(at(['name']), `the name is used by campaigns[${seen.get(entry.name)}] too: names must be unique`));
    seen.set(entry.name, index);
    for (const key of Object.keys(entry)) if (!CAMPAIGN_FIELDS.has(key)) problems.push(problemAt(at([key]), 'unknown field'));
    const checked = campaignInputSchema.safeParse(definition);
    if (!checked.success) for (const issue of checked.error.issues) problems.push(problemAt(at(issue.path as FieldPath), issue.message));
    else campaigns.push({ index, name: entry.name, definition: definition as CampaignInput, normalized: checked.data, evalSet });
  });
  if (problems.length) throw new ConfigError(problems);
  return { file, campaigns, secrets, problemAt };
}

/**
 * The value with `${NAME}` in every string replaced by the environment variable NAME, `${NAME:-default}` by the default
 * when NAME is unset or empty (`$${` writes a literal `${`); a variable that is not set and has no default is a problem
 * at that string. Each value taken from the environment (of 4 characters or more) is added to `secrets`.
 */
function substitute(
  value: unknown,
  path: FieldPath,
  env: NodeJS.ProcessEnv,
  secrets: string[],
  problem: (path: FieldPath, message: string) => void,
): unknown {
  if (typeof value === 'string') {
    return value.replace(ENV_REF, (whole, escaped: string, name: string, fallback: string | undefined) => {
      if (escaped) return whole.slice(1);
      if (!ENV_NAME.test(name)) {
        problem(path, `\${${name}} is not an environment variable reference (letters, digits and _; write $\${ for a literal \${)`);
        return whole;
      }
      const v = env[name];
      if ((v === undefined || v === '') && fallback !== undefined) return fallback;
      if (v === undefined) {
        problem(path, `the environment variable ${name} is not set`);
        return whole;
      }
      // Masked in the output wherever it appears; a value this short is no secret, and masking it would garble the text.
      if (v.length >= 4) secrets.push(v);
      return v;
    });
  }
  if (Array.isArray(value)) return value.map((v, i) => substitute(v, [...path, i], env, secrets, problem));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      Object.defineProperty(out, k, {
        value: substitute(v, [...path, k], env, secrets, problem),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }
  return value;
}

/**
 * Where a field is in the text: the key of a mapping entry (the line a reader looks for), an item of a sequence, or,
 * for a field that is missing, the nearest part of its path that exists.
 */
function offsetOf(doc: Document, path: FieldPath): number {
  let node: unknown = doc.contents;
  let offset = (doc.contents as Node | null)?.range?.[0] ?? 0;
  for (const seg of path) {
    if (isMap(node)) {
      const pair = node.items.find(
        (p) => (p.key as { value?: unknown } | null)?.value === seg || String((p.key as { value?: unknown })?.value) === String(seg),
      );
      if (!pair) break;
      offset = (pair.key as Node | null)?.range?.[0] ?? offset;
      node = pair.value;
    } else if (isSeq(node) && typeof seg === 'number' && node.items[seg]) {
      node = node.items[seg];
      offset = (node as Node).range?.[0] ?? offset;
    } else break;
  }
  return offset;
}
