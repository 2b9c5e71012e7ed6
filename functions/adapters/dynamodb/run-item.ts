// How a run is stored in its META item, and read back from any format an item was ever written in.
//
// Today the item leaves out what its keys already say (the project and run ids are the key's, the creation time the
// listing key's) and the fields that are null (each read back as null). Its result (the terminal summary and cells,
// the error and the completion time, written together when the run ends) is one raw-deflate stream with the completion
// markers' preset dictionary (`result_z`; its first byte is the dictionary's version), whose skeleton is a run's
// summary and cells. A finished CI run of the sample campaign is ~0.9 KB instead of ~1.7 KB (~1.0 KB with GitHub
// Actions metadata), so its terminal write is 1 write unit instead of 2 (docs/benchmarks.md#what-a-ci-batch-costs-in-aws). Before, every field was an attribute of
// its own: such items read as they were, and a terminal write to one removes the attributes its result replaces. A CI
// run's state (`ci`: thresholds, the pipeline's commit, branch and URL, the decision) is compressed too, with a
// dictionary of its own (`ci_z`), at every write of it: 250 bytes as a map with GitHub Actions metadata, ~110.
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { Run } from '../../core/runs/types';
import { MARKER_DICTIONARIES, MARKER_DICTIONARY_VERSION, RUN_CI_DICTIONARIES, RUN_CI_DICTIONARY_VERSION, dictionary } from './dictionaries';
import { STORAGE_ATTRIBUTES, keys } from './keys';

/** The fields of a run in the order the core builds one (newRun, then what starting and ending add). */
const RUN_FIELDS = [
  'run_id',
  'project_id',
  'trace_id',
  'campaign_id',
  'campaign_version',
  'source',
  'status',
  'created_at',
  'started_at',
  'completed_at',
  'summary',
  'error',
  'ci_batch_id',
  'pack_id',
  'ci',
  'attempt_total',
  'trace_name',
  'cells',
] as const satisfies readonly (keyof Run)[];

/** Fields every run has, null until set: not stored while null, read back as null when absent. */
const NULLABLE: ReadonlySet<string> = new Set<keyof Run>(['started_at', 'completed_at', 'error', 'ci_batch_id', 'pack_id', 'ci', 'attempt_total']);

/** What the key and the listing key say: not stored. */
const FROM_KEYS: ReadonlySet<string> = new Set<keyof Run>(['run_id', 'project_id', 'created_at']);

/** The fields of the compressed result, in the order they are compressed (that of the dictionary's skeleton). */
const RESULT_FIELDS = ['summary', 'error', 'completed_at', 'cells'] as const satisfies readonly (keyof Run)[];

const RESULT_ATTRIBUTE = 'result_z';
/** A CI run's state (thresholds, the pipeline's metadata, the decision), compressed with a dictionary of its own. */
const CI_ATTRIBUTE = 'ci_z';

/** A compressed value: the dictionary's version, then its JSON raw-deflated with that dictionary. */
function compress(value: unknown, dictionaries: Readonly<Record<number, Buffer>>, version: number): Buffer {
  const body = deflateRawSync(Buffer.from(JSON.stringify(value)), { level: 9, dictionary: dictionaries[version] });
  return Buffer.concat([Buffer.from([version]), body]);
}

function inflate<T>(stored: Uint8Array, dictionaries: Readonly<Record<number, Buffer>>): T {
  const bytes = Buffer.from(stored);
  return JSON.parse(inflateRawSync(bytes.subarray(1), { dictionary: dictionary(dictionaries, bytes[0]) }).toString('utf8')) as T;
}

/** A run's META item as the core sees it, whatever format it was written in. */
export function decodeRun(item: Record<string, unknown>): Run {
  const [, projectId, runId] = String(item.pk).split('#');
  const listKey = typeof item.gsi1sk === 'string' ? item.gsi1sk : '';
  const fields: Record<string, unknown> = { run_id: runId, project_id: projectId, created_at: listKey.slice(0, listKey.lastIndexOf('#')) };
  // The result is written once, by the write that ends the run, which removes the attributes it replaces: an attribute
  // beside it was written later, and wins.
  if (item[RESULT_ATTRIBUTE] !== undefined) Object.assign(fields, inflate(item[RESULT_ATTRIBUTE] as Uint8Array, MARKER_DICTIONARIES));
  const skip = new Set<string>([...STORAGE_ATTRIBUTES, RESULT_ATTRIBUTE, CI_ATTRIBUTE]);
  for (const [name, value] of Object.entries(item)) if (!skip.has(name)) fields[name] = value;
  // Every write of the CI state stores it compressed and removes the attribute items of earlier versions held it in.
  if (item[CI_ATTRIBUTE] !== undefined) fields.ci = inflate(item[CI_ATTRIBUTE] as Uint8Array, RUN_CI_DICTIONARIES);
  const run: Record<string, unknown> = {};
  for (const name of RUN_FIELDS) {
    if (name in fields) run[name] = fields[name];
    else if (NULLABLE.has(name)) run[name] = null;
  }
  // Attributes of earlier versions (a run's own completion_published mark) stay as they were.
  for (const [name, value] of Object.entries(fields)) if (!(name in run)) run[name] = value;
  return run as unknown as Run;
}

/** The item of a new run: its keys, and its fields but those the keys say and those still null. */
export function runItem(run: Run): Record<string, unknown> {
  const item: Record<string, unknown> = {
    ...keys.run(run.project_id, run.run_id),
    ...keys.runList(run.project_id, run.created_at, run.run_id),
    entity: 'run',
  };
  for (const [name, value] of Object.entries(run)) {
    if (FROM_KEYS.has(name) || value === undefined || (value === null && NULLABLE.has(name))) continue;
    if (name === 'ci') item[CI_ATTRIBUTE] = compress(value, RUN_CI_DICTIONARIES, RUN_CI_DICTIONARY_VERSION);
    else item[name] = value;
  }
  return item;
}

/** An UpdateItem's expression and placeholders. */
interface RunUpdate {
  expr: string;
  names: Record<string, string>;
  values: Record<string, unknown>;
}

/**
 * The update that applies `patch` to a stored run. A null field is removed (it reads back as null), but for the
 * result's fields, which a later write may set over the compressed result. The write that ends the run (`ending`: a
 * terminal status, conditioned on an active one, so made once per run) has its result fields compressed into
 * `result_z`, their own attributes removed.
 */
export function runUpdate(patch: Partial<Run>, ending = false): RunUpdate {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const sets: string[] = [];
  const removes: string[] = [];
  let n = 0;
  const name = (field: string) => {
    const placeholder = `#f${n++}`;
    names[placeholder] = field;
    return placeholder;
  };
  const set = (field: string, value: unknown) => {
    const placeholder = name(field);
    values[`:v${placeholder.slice(2)}`] = value;
    sets.push(`${placeholder} = :v${placeholder.slice(2)}`);
  };

  const entries = Object.entries(patch).filter(([, v]) => v !== undefined);
  const result = ending ? compressResult(patch) : null;
  for (const [field, value] of entries) {
    const inResult = (RESULT_FIELDS as readonly string[]).includes(field);
    if (field === 'ci') {
      // Compressed (or removed, when null), and the attribute of earlier versions removed.
      removes.push(name('ci'));
      if (value === null) removes.push(name(CI_ATTRIBUTE));
      else set(CI_ATTRIBUTE, compress(value, RUN_CI_DICTIONARIES, RUN_CI_DICTIONARY_VERSION));
    } else if (result && inResult) removes.push(name(field));
    // A result field set to null after the end must hide the compressed result's value: it is stored as null.
    else if (value === null && NULLABLE.has(field) && !inResult) removes.push(name(field));
    else set(field, value);
  }
  if (result) set(RESULT_ATTRIBUTE, result);
  const expr = [sets.length ? `SET ${sets.join(', ')}` : '', removes.length ? `REMOVE ${removes.join(', ')}` : ''].filter(Boolean).join(' ');
  return { expr, names, values };
}

/** The patch's result fields as stored. */
function compressResult(patch: Partial<Run>): Buffer {
  const result: Record<string, unknown> = {};
  for (const field of RESULT_FIELDS) if (patch[field] !== undefined) result[field] = patch[field];
  return compress(result, MARKER_DICTIONARIES, MARKER_DICTIONARY_VERSION);
}
