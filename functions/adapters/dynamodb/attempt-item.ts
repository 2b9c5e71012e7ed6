// How an attempt is stored in its ATTEMPT item, and read back from any format an item was ever written in.
//
// Today: the whole record (score, checks, events, transcript) as one JSON text, raw-deflated with a preset dictionary
// (`body_z`, the dictionary's version in `body_dict`), without what the item's key and the engine's numbering already
// say (the run id, each event's id, run id, attempt and sequence) and with times after the attempt's start in
// milliseconds. Before: checks, events and transcript raw-deflated without a dictionary, the score in attributes of its
// own; before that, checks as JSON text and events and transcript each gzip-compressed.
import { deflateRawSync, gunzipSync, gzipSync, inflateRawSync } from 'node:zlib';
import { eventId } from '../../core/ids';
import { canonicalJson } from '../../core/json';
import { isoMicros } from '../../core/time';
import type { AttemptRecord, PolicyEvent, SecurityEvent } from '../../core/runs/types';
import { ATTEMPT_DICTIONARIES, ATTEMPT_DICTIONARY_VERSION, dictionary } from './dictionaries';
import { stripKeys } from './keys';
import { packJson, unpackJson } from './table';

/** Checks text + compressed events + transcript above this: the transcript is dropped from the item (scores and events are kept). */
const MAX_ATTEMPT_BLOBS = 350 * 1024;

/** Outputs above this are stored gzip-compressed; compressed outputs above OUTPUT_MAX_GZ are cut to fit. */
const OUTPUT_INLINE_MAX = 8 * 1024;
const OUTPUT_MAX_GZ = 200 * 1024;

function outputAttributes(output: string | null): { output?: string | null; output_gz?: Buffer; output_truncated?: true } {
  if (output === null || output === undefined || Buffer.byteLength(output) <= OUTPUT_INLINE_MAX) return { output };
  let gz = gzipSync(Buffer.from(output));
  if (gz.length <= OUTPUT_MAX_GZ) return { output_gz: gz };
  // Incompressible and huge: keep the share that fits (each character is at most 4 bytes compressed or not).
  gz = gzipSync(Buffer.from(output.slice(0, Math.floor(OUTPUT_MAX_GZ / 4))));
  return { output_gz: gz, output_truncated: true };
}

/** Compressed turn outputs above this are cut, each to an equal share. */
const TURN_OUTPUTS_MAX_GZ = 100 * 1024;

/** A multi-turn attempt's outputs, one per turn, as gzip-compressed JSON (docs/campaigns-and-replay.md#turns); `cut` when cut to fit. */
function turnOutputsGz(outputs: string[]): { gz: Buffer; cut: boolean } {
  const gz = gzipSync(Buffer.from(JSON.stringify(outputs)));
  if (gz.length <= TURN_OUTPUTS_MAX_GZ) return { gz, cut: false };
  const share = Math.floor(TURN_OUTPUTS_MAX_GZ / 4 / Math.max(1, outputs.length));
  return { gz: gzipSync(Buffer.from(JSON.stringify(outputs.map((o) => o.slice(0, share))))), cut: true };
}

/** The compressed record of the current format: `r` the score, then checks, events, transcript and turn outputs. */
interface StoredBody {
  r: Record<string, unknown>;
  c?: AttemptRecord['checks'];
  p: Record<string, unknown>[];
  s: Record<string, unknown>[];
  t?: AttemptRecord['transcript'];
  o?: string[];
}

/** The body of the format before (no dictionary, the score in attributes). */
interface LegacyBody {
  c?: AttemptRecord['checks'];
  p: PolicyEvent[];
  s: SecurityEvent[];
  t?: AttemptRecord['transcript'];
}

type EventKind = 'policy' | 'security';
const NUMBERING = ['event_id', 'run_id', 'attempt', 'sequence'];

/** A time as milliseconds after `start` when that gives the same text back, else the text. */
function timeAfter(iso: unknown, start: number): unknown {
  if (typeof iso !== 'string' || !Number.isFinite(start)) return iso;
  const ms = Date.parse(iso);
  return Number.isFinite(ms) && isoMicros(new Date(ms)) === iso ? ms - start : iso;
}
const timeBack = (v: unknown, start: number): unknown => (typeof v === 'number' ? isoMicros(new Date(start + v)) : v);

/** An event without the numbering the engine gives it (its id, run, attempt, sequence), when it is exactly that. */
function compactEvent(e: PolicyEvent | SecurityEvent, i: number, kind: EventKind, start: number): Record<string, unknown> {
  const entries = Object.entries(e);
  const numbered =
    entries.slice(0, 4).every(([k], j) => k === NUMBERING[j]) &&
    e.sequence === i + 1 &&
    e.event_id === eventId(e.run_id, e.attempt, kind, e.sequence);
  const rest = Object.fromEntries(numbered ? entries.slice(4) : entries);
  return 'created_at' in rest ? { ...rest, created_at: timeAfter(rest.created_at, start) } : rest;
}

function expandEvent(e: Record<string, unknown>, i: number, kind: EventKind, runId: string, attempt: number, start: number) {
  const timed = 'created_at' in e ? { ...e, created_at: timeBack(e.created_at, start) } : e;
  if ('event_id' in e) return timed;
  const sequence = i + 1;
  return { event_id: eventId(runId, attempt, kind, sequence), run_id: runId, attempt, sequence, ...timed };
}

/** Whether the transcript fits the item beside the rest (each compressed on its own, as the bound was set). */
function keepsTranscript(attempt: AttemptRecord, others: number): boolean {
  const eventsJson = JSON.stringify({ policy: attempt.policy_events, security: attempt.security_events });
  const transcriptJson = JSON.stringify(attempt.transcript);
  // gzip never grows a text by more than 0.1 % and a few bytes, so below that bound nothing needs compressing to know it.
  const gzipBound = (text: string) => Math.ceil(Buffer.byteLength(text) * 1.001) + 64;
  if (gzipBound(eventsJson) + gzipBound(transcriptJson) + others <= MAX_ATTEMPT_BLOBS) return true;
  return gzipSync(Buffer.from(transcriptJson)).length + gzipSync(Buffer.from(eventsJson)).length + others <= MAX_ATTEMPT_BLOBS;
}

/** The score, policy and security events of the compact record (`r`, `p`, `s`); the output too unless stored apart. */
function compactParts(attempt: AttemptRecord, withOutput: boolean): Pick<StoredBody, 'r' | 'p' | 's'> {
  const { transcript: _t, policy_events, security_events, checks: _c, output, turn_outputs: _o, ...score } = attempt;
  const start = Date.parse(attempt.started_at ?? '');
  // The run id is the key's: 0 holds its place (the record's keys keep their order).
  const r: Record<string, unknown> = { ...score, run_id: 0, completed_at: timeAfter(score.completed_at, start) };
  if (withOutput) r.output = output;
  return {
    r,
    p: policy_events.map((e, i) => compactEvent(e, i, 'policy', start)),
    s: security_events.map((e, i) => compactEvent(e, i, 'security', start)),
  };
}

/** The score and events back from the compact record, with the run id of the item's key. */
function expandParts(parts: Pick<StoredBody, 'r' | 'p' | 's'>, runId: string) {
  const { r } = parts;
  const start = Date.parse(String(r.started_at));
  const attempt = Number(r.attempt);
  return {
    score: { ...r, run_id: r.run_id === 0 ? runId : r.run_id, completed_at: timeBack(r.completed_at, start) },
    policy: parts.p.map((e, i) => expandEvent(e, i, 'policy', runId, attempt, start)) as PolicyEvent[],
    security: parts.s.map((e, i) => expandEvent(e, i, 'security', runId, attempt, start)) as SecurityEvent[],
  };
}

/**
 * Whether the compact parts read back as the attempt's score and events (the events to the byte); checks, transcript
 * and turn outputs are stored as they are, so only these need checking.
 */
function readsBack(attempt: AttemptRecord, parts: Pick<StoredBody, 'r' | 'p' | 's'>, withOutput: boolean): boolean {
  const { transcript: _t, policy_events, security_events, checks: _c, output, turn_outputs: _o, ...score } = attempt;
  const back = expandParts(JSON.parse(JSON.stringify(parts)) as typeof parts, attempt.run_id);
  return (
    canonicalJson(back.score) === canonicalJson(withOutput ? { ...score, output } : score) &&
    JSON.stringify(back.policy) === JSON.stringify(policy_events) &&
    JSON.stringify(back.security) === JSON.stringify(security_events)
  );
}

/**
 * The item attributes of an attempt (keys and entity aside) in the current format, or null when its score and events
 * would not read back the same, or its output had to be cut to fit (events numbered otherwise than by the engine and
 * times in another form are kept as they are).
 */
export function attemptAttributes(attempt: AttemptRecord): Record<string, unknown> | null {
  const { transcript, checks, output, turn_outputs } = attempt;
  // An agent's answer may be up to 1 MiB: a long output is kept compressed in an attribute of its own, and what still
  // exceeds its share of the item is cut for display (the criteria have already judged the whole output).
  const outputAttr = outputAttributes(output);
  if (outputAttr.output_truncated) return null;
  const withOutput = !outputAttr.output_gz;
  const parts = compactParts(attempt, withOutput);
  if (!readsBack(attempt, parts, withOutput)) return null;
  // Turn outputs go into the body, unless they were cut to fit (then in their attribute, as before).
  const turns = turn_outputs ? turnOutputsGz(turn_outputs) : undefined;
  const others = Buffer.byteLength(packJson(checks) ?? '') + (outputAttr.output_gz?.length ?? 0) + (turns?.gz.length ?? 0);
  const keep = keepsTranscript(attempt, others);
  const body: StoredBody = {
    r: parts.r,
    c: checks,
    p: parts.p,
    s: parts.s,
    ...(keep ? { t: transcript } : {}),
    ...(turn_outputs && !turns?.cut ? { o: turn_outputs } : {}),
  };
  const json = Buffer.from(JSON.stringify(body));
  return {
    body_z: deflateRawSync(json, { level: 9, dictionary: ATTEMPT_DICTIONARIES[ATTEMPT_DICTIONARY_VERSION] }),
    body_dict: ATTEMPT_DICTIONARY_VERSION,
    ...(outputAttr.output_gz ? { output_gz: outputAttr.output_gz } : {}),
    ...(turns?.cut ? { turn_outputs_gz: turns.gz } : {}),
    ...(keep ? {} : { transcript_dropped: true }),
  };
}

/**
 * The item attributes of an attempt in the format before the dictionary (score in attributes, `body_z` of checks,
 * events and transcript): written when the current format would not read back exactly the same record.
 */
export function legacyAttemptAttributes(attempt: AttemptRecord): Record<string, unknown> {
  const { transcript, policy_events, security_events, checks, output, turn_outputs, ...rest } = attempt;
  const outputAttr = outputAttributes(output);
  const turnsAttr = turn_outputs ? { turn_outputs_gz: turnOutputsGz(turn_outputs).gz } : {};
  const others = Buffer.byteLength(packJson(checks) ?? '') + (outputAttr.output_gz?.length ?? 0) + (turnsAttr.turn_outputs_gz?.length ?? 0);
  const keep = keepsTranscript(attempt, others);
  const body: LegacyBody = { c: checks, p: policy_events, s: security_events, ...(keep ? { t: transcript } : {}) };
  return {
    ...rest,
    ...outputAttr,
    ...turnsAttr,
    body_z: deflateRawSync(Buffer.from(JSON.stringify(body)), { level: 9 }),
    ...(keep ? {} : { transcript_dropped: true }),
    policy_event_count: policy_events.length,
    security_event_count: security_events.length,
  };
}

/** The attributes to store for an attempt: the current format when it reads back as the same record, else the format before. */
export function storedAttemptAttributes(attempt: AttemptRecord): Record<string, unknown> {
  return attemptAttributes(attempt) ?? legacyAttemptAttributes(attempt);
}

type StoredItem = AttemptRecord & {
  body_z?: Uint8Array;
  body_dict?: number;
  transcript_gz?: Uint8Array;
  transcript_dropped?: boolean;
  events_gz?: Uint8Array;
  checks_json?: string;
  output_gz?: Uint8Array;
  turn_outputs_gz?: Uint8Array;
  policy_event_count?: number;
  security_event_count?: number;
};

const gunzipJson = <T>(z: Uint8Array): T => JSON.parse(gunzipSync(Buffer.from(z)).toString('utf8')) as T;

/** An item of the current format as the core sees it. */
function decodeCurrent(item: StoredItem, runId: string, transcripts: boolean): AttemptRecord {
  const text = inflateRawSync(Buffer.from(item.body_z!), { dictionary: dictionary(ATTEMPT_DICTIONARIES, item.body_dict) });
  const body = JSON.parse(text.toString('utf8')) as StoredBody;
  const { score, policy, security } = expandParts(body, runId);
  return {
    ...score,
    ...(item.output_gz ? { output: gunzipSync(Buffer.from(item.output_gz)).toString('utf8') } : {}),
    ...(body.o ? { turn_outputs: body.o } : item.turn_outputs_gz ? { turn_outputs: gunzipJson<string[]>(item.turn_outputs_gz) } : {}),
    checks: body.c,
    transcript: transcripts ? (body.t ?? []) : [],
    ...(item.transcript_dropped ? { transcript_dropped: true } : {}),
    policy_events: policy,
    security_events: security,
  } as AttemptRecord;
}

/**
 * A stored attempt item (or its attributes) as the core sees it, whatever format it was written in; `transcripts:
 * false` leaves the transcript undecoded (scoring views). `runId` is the run of the item's key.
 */
export function decodeAttempt(i: Record<string, unknown>, runId: string, transcripts: boolean): AttemptRecord {
  const item = stripKeys<StoredItem>(i);
  if (item.body_dict !== undefined) return decodeCurrent(item, runId, transcripts);
  const {
    body_z,
    transcript_gz,
    transcript_dropped,
    events_gz,
    checks_json,
    output_gz,
    turn_outputs_gz,
    policy_event_count: _pc,
    security_event_count: _sc,
    ...score
  } = item;
  // Items stored before body_z hold the three in attributes of their own (checks as JSON text, the rest gzip-compressed).
  const body: LegacyBody | undefined = body_z ? (JSON.parse(inflateRawSync(Buffer.from(body_z)).toString('utf8')) as LegacyBody) : undefined;
  const events = body
    ? { policy: body.p, security: body.s }
    : events_gz
      ? gunzipJson<{ policy: PolicyEvent[]; security: SecurityEvent[] }>(events_gz)
      : { policy: [], security: [] };
  const transcript = !transcripts ? [] : body ? (body.t ?? []) : transcript_gz ? gunzipJson<AttemptRecord['transcript']>(transcript_gz) : [];
  return {
    ...score,
    ...(output_gz ? { output: gunzipSync(Buffer.from(output_gz)).toString('utf8') } : {}),
    ...(turn_outputs_gz ? { turn_outputs: gunzipJson<string[]>(turn_outputs_gz) } : {}),
    checks: body ? body.c : unpackJson(checks_json, score.checks),
    transcript,
    ...(transcript_dropped ? { transcript_dropped: true } : {}),
    policy_events: events.policy,
    security_events: events.security,
  } as AttemptRecord;
}
