// Runs: META (listed through gsi1) and one ATTEMPT item per finished attempt, holding its score, its policy and
// security events and its transcript (both gzip-compressed): one conditional put stores an attempt exactly once.
// Also the run-packs that queued runs together (one PACK item each).
import { deflateRawSync, gunzipSync, gzipSync, inflateRawSync } from 'node:zlib';
import type { AttemptRecord, PolicyEvent, Run, RunPack, RunStatus, SecurityEvent } from '../../core/runs/types';
import type { PageRequest, ReplayMessage, RunFilter, RunsRepo, StorePage } from '../../core/ports';
import { keys, stripKeys } from './keys';
import { Lru } from './lru';
import { batchWrite, getItem, packJson, putNew, putRequest, queryAll, queryListing, queryPage, scanAll, unpackJson, updateExisting } from './table';

/** Scores of terminal runs (immutable), without transcripts. */
const finalScores = new Lru<AttemptRecord[]>(500);

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

/** A multi-turn attempt's outputs, one per turn, as one gzip-compressed JSON attribute (docs/campaigns-and-replay.md#turns). */
function turnOutputsAttributes(outputs: string[] | undefined): { turn_outputs_gz?: Buffer } {
  if (!outputs) return {};
  const gz = gzipSync(Buffer.from(JSON.stringify(outputs)));
  if (gz.length <= TURN_OUTPUTS_MAX_GZ) return { turn_outputs_gz: gz };
  const share = Math.floor(TURN_OUTPUTS_MAX_GZ / 4 / Math.max(1, outputs.length));
  return { turn_outputs_gz: gzipSync(Buffer.from(JSON.stringify(outputs.map((o) => o.slice(0, share))))) };
}

function runItem(run: Run) {
  return { ...keys.run(run.project_id, run.run_id), ...keys.runList(run.project_id, run.created_at, run.run_id), entity: 'run', ...run };
}

function buildUpdate(patch: Record<string, unknown>) {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const sets: string[] = [];
  Object.entries(patch).forEach(([k, v], i) => {
    if (v === undefined) return;
    names[`#f${i}`] = k;
    values[`:v${i}`] = v;
    sets.push(`#f${i} = :v${i}`);
  });
  return { expr: `SET ${sets.join(', ')}`, names, values };
}

/** An attempt's checks, events and transcript in its `body_z` attribute (the transcript left out when dropped). */
interface AttemptBody {
  c?: AttemptRecord['checks'];
  p: PolicyEvent[];
  s: SecurityEvent[];
  t?: AttemptRecord['transcript'];
}

/**
 * The attempt's checks, events and transcript as one raw-deflate-compressed JSON attribute: one stream compresses
 * once the words they share (tool names, arguments, the output the checks quote), without gzip's 18-byte frame per
 * attribute. An attempt item of the sample campaign is ~1.6 KB instead of ~2.1-2.5 KB: 2 write units, not 3
 * (docs/benchmarks.md#what-a-ci-batch-costs-in-aws).
 */
const packBody = (body: AttemptBody): Buffer => deflateRawSync(Buffer.from(JSON.stringify(body)), { level: 9 });

/** A stored attempt item as the core sees it; `transcripts: false` leaves the transcript undecoded (scoring views). */
function decodeAttempt(i: Record<string, unknown>, transcripts: boolean): AttemptRecord {
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
  } = stripKeys<
    AttemptRecord & {
      body_z?: Uint8Array;
      transcript_gz?: Uint8Array;
      transcript_dropped?: boolean;
      events_gz?: Uint8Array;
      checks_json?: string;
      output_gz?: Uint8Array;
      turn_outputs_gz?: Uint8Array;
      policy_event_count?: number;
      security_event_count?: number;
    }
  >(i);
  // Items stored before body_z hold the three in attributes of their own (checks as JSON text, the rest gzip-compressed).
  const body: AttemptBody | undefined = body_z ? (JSON.parse(inflateRawSync(Buffer.from(body_z)).toString('utf8')) as AttemptBody) : undefined;
  const events = body
    ? { policy: body.p, security: body.s }
    : events_gz
      ? (JSON.parse(gunzipSync(Buffer.from(events_gz)).toString('utf8')) as { policy: PolicyEvent[]; security: SecurityEvent[] })
      : { policy: [], security: [] };
  const transcript = !transcripts
    ? []
    : body
      ? (body.t ?? [])
      : transcript_gz
        ? JSON.parse(gunzipSync(Buffer.from(transcript_gz)).toString('utf8'))
        : [];
  return {
    ...score,
    ...(output_gz ? { output: gunzipSync(Buffer.from(output_gz)).toString('utf8') } : {}),
    ...(turn_outputs_gz ? { turn_outputs: JSON.parse(gunzipSync(Buffer.from(turn_outputs_gz)).toString('utf8')) as string[] } : {}),
    checks: body ? body.c : unpackJson(checks_json, score.checks),
    transcript,
    ...(transcript_dropped ? { transcript_dropped: true } : {}),
    policy_events: events.policy,
    security_events: events.security,
  } as AttemptRecord;
}

export class DynamoRunsRepo implements RunsRepo {
  async create(run: Run): Promise<void> {
    const stored = await putNew(
      runItem(run),
      // A fresh id: the item under it is this call's own write when the put's answer was lost.
      (item) => item.created_at === run.created_at && item.trace_id === run.trace_id && item.campaign_id === run.campaign_id,
    );
    if (!stored) throw new Error(`run ${run.run_id} already exists`);
  }

  async createMany(runs: Run[]): Promise<void> {
    await batchWrite(runs.map((r) => putRequest(runItem(r))));
  }

  async get(projectId: string, runId: string): Promise<Run | null> {
    const item = await getItem(keys.run(projectId, runId), true);
    return item ? stripKeys<Run>(item) : null;
  }

  async list(projectId: string, filter: RunFilter, page: PageRequest): Promise<StorePage<Run>> {
    const res = await queryListing(keys.runListPk(projectId), page, { ...filter });
    return { items: res.items.map((i) => stripKeys<Run>(i)), last: res.last };
  }

  async transition(projectId: string, runId: string, from: RunStatus[], patch: Partial<Run>): Promise<Run | null> {
    const u = buildUpdate(patch as Record<string, unknown>);
    const fromValues = Object.fromEntries(from.map((s, i) => [`:from${i}`, s]));
    const updated = await updateExisting({
      Key: keys.run(projectId, runId),
      UpdateExpression: u.expr,
      ConditionExpression: `#status IN (${Object.keys(fromValues).join(', ')})`,
      ExpressionAttributeNames: { ...u.names, '#status': 'status' },
      ExpressionAttributeValues: { ...u.values, ...fromValues },
    });
    return updated && stripKeys<Run>(updated);
  }

  async update(projectId: string, runId: string, patch: Partial<Run>): Promise<void> {
    const u = buildUpdate(patch as Record<string, unknown>);
    if (Object.keys(u.names).length === 0) return;
    const updated = await updateExisting({
      Key: keys.run(projectId, runId),
      UpdateExpression: u.expr,
      ExpressionAttributeNames: u.names,
      ExpressionAttributeValues: u.values,
      ReturnValues: 'NONE',
    });
    if (!updated) throw new Error(`run ${runId} does not exist`);
  }

  async putAttempt(projectId: string, attempt: AttemptRecord): Promise<boolean> {
    // The checks carry the campaign's criteria (free-form goal arguments): JSON text, like every user-shaped value.
    const { transcript, policy_events, security_events, checks, ...score } = attempt;
    // Events travel inside the attempt item, compressed: one conditional put stores an attempt and everything it
    // produced atomically, so a re-run after a crash can neither double-write nor leave half an attempt behind.
    const eventsJson = JSON.stringify({ policy: policy_events, security: security_events });
    const transcriptJson = JSON.stringify(transcript);
    const checksJson = packJson(checks);
    // An agent's answer may be up to 1 MiB: a long output is kept compressed, and what still exceeds its share of
    // the item is cut for display (the criteria have already judged the whole output).
    const { output, turn_outputs, ...rest } = score;
    const outputAttr = outputAttributes(output);
    const turnsAttr = turnOutputsAttributes(turn_outputs);
    const others = Buffer.byteLength(checksJson ?? '') + (outputAttr.output_gz?.length ?? 0) + (turnsAttr.turn_outputs_gz?.length ?? 0);
    // The transcript is kept when the events and the transcript, each gzip-compressed, fit beside the rest. gzip never
    // grows a text by more than 0.1 % and a few bytes, so below that bound nothing needs compressing to know it.
    const gzipBound = (text: string) => Math.ceil(Buffer.byteLength(text) * 1.001) + 64;
    const blobBytes =
      gzipBound(eventsJson) + gzipBound(transcriptJson) + others <= MAX_ATTEMPT_BLOBS
        ? 0
        : gzipSync(Buffer.from(transcriptJson)).length + gzipSync(Buffer.from(eventsJson)).length + others;
    const keepTranscript = blobBytes <= MAX_ATTEMPT_BLOBS;
    const body = packBody({ c: checks, p: policy_events, s: security_events, ...(keepTranscript ? { t: transcript } : {}) });
    // false when the attempt is already stored (another delivery, or this one's lost answer): the executor re-reads.
    return putNew({
      ...keys.attempt(projectId, attempt.run_id, attempt.attempt),
      entity: 'attempt',
      ...rest,
      ...outputAttr,
      ...turnsAttr,
      body_z: body,
      ...(keepTranscript ? {} : { transcript_dropped: true }),
      policy_event_count: policy_events.length,
      security_event_count: security_events.length,
    });
  }

  async listAttempts(projectId: string, runId: string, opts: { transcripts?: boolean; final?: boolean } = {}): Promise<AttemptRecord[]> {
    const cacheable = opts.final === true && opts.transcripts === false;
    const cacheKey = `${projectId}/${runId}`;
    if (cacheable) {
      const hit = finalScores.get(cacheKey);
      if (hit) return hit;
    }
    const result = await this.queryAttempts(projectId, runId, opts);
    if (cacheable) finalScores.set(cacheKey, result);
    return result;
  }

  /**
   * One page of a run's attempts by number, each decoded then handed to `view` before the next is decoded, so a page
   * never holds more than one whole transcript; the page position is the last attempt's number.
   */
  async listAttemptPage<T>(projectId: string, runId: string, page: PageRequest, view: (a: AttemptRecord) => T): Promise<StorePage<T>> {
    const after = (page.after as { attempt?: unknown } | undefined)?.attempt;
    let start = typeof after === 'number' && Number.isInteger(after) ? keys.attempt(projectId, runId, after) : undefined;
    const items: T[] = [];
    let lastAttempt: number | undefined;
    // The store answers at most 1 MB per query (a few attempts with large transcripts): query on until the page is full.
    do {
      const res = await queryPage({
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
        ExpressionAttributeValues: { ':pk': keys.run(projectId, runId).pk, ':p': keys.attemptPrefix },
        ConsistentRead: true,
        Limit: page.limit - items.length,
        ...(start ? { ExclusiveStartKey: start } : {}),
      });
      for (const item of res.items) {
        const attempt = decodeAttempt(item, true);
        lastAttempt = attempt.attempt;
        items.push(view(attempt));
      }
      start = res.last as typeof start;
    } while (start && items.length < page.limit);
    return { items, last: start && lastAttempt !== undefined ? { attempt: lastAttempt } : undefined };
  }

  /** One stored attempt, whole; null when it is not stored (yet). */
  async getAttempt(projectId: string, runId: string, attempt: number): Promise<AttemptRecord | null> {
    const item = await getItem(keys.attempt(projectId, runId, attempt), true);
    return item ? decodeAttempt(item, true) : null;
  }

  private async queryAttempts(projectId: string, runId: string, opts: { transcripts?: boolean }): Promise<AttemptRecord[]> {
    const items = await queryAll({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
      ExpressionAttributeValues: { ':pk': keys.run(projectId, runId).pk, ':p': keys.attemptPrefix },
      ConsistentRead: true,
    });
    return items.map((i) => decodeAttempt(i, opts.transcripts !== false));
  }

  /** Policy events ordered by attempt then sequence; the page position is the last event's (attempt, sequence). */
  async listPolicyEvents(projectId: string, runId: string, page: PageRequest): Promise<StorePage<PolicyEvent>> {
    const after = page.after as { attempt?: number; sequence?: number } | undefined;
    const all = (await this.queryAttempts(projectId, runId, { transcripts: false }))
      .flatMap((a) => a.policy_events)
      .sort((x, y) => x.attempt - y.attempt || x.sequence - y.sequence);
    const from = after ? all.findIndex((e) => e.attempt > after.attempt! || (e.attempt === after.attempt && e.sequence > after.sequence!)) : 0;
    const rest = from < 0 ? [] : all.slice(from);
    const items = rest.slice(0, page.limit);
    const lastItem = items[items.length - 1];
    return { items, last: rest.length > page.limit && lastItem ? { attempt: lastItem.attempt, sequence: lastItem.sequence } : undefined };
  }

  async listSecurityEvents(projectId: string, runId: string): Promise<SecurityEvent[]> {
    return (await this.queryAttempts(projectId, runId, { transcripts: false }))
      .flatMap((a) => a.security_events)
      .sort((x, y) => x.attempt - y.attempt || x.sequence - y.sequence);
  }

  async putPack(pack: RunPack): Promise<void> {
    const stored = await putNew(
      { ...keys.pack(pack.project_id, pack.pack_id), entity: 'run_pack', ...pack },
      (item) => item.created_at === pack.created_at && item.campaign_id === pack.campaign_id,
    );
    if (!stored) throw new Error(`run-pack ${pack.pack_id} already exists`);
  }

  async getPack(projectId: string, packId: string): Promise<RunPack | null> {
    const item = await getItem(keys.pack(projectId, packId), true);
    return item ? stripKeys<RunPack>(item) : null;
  }

  /**
   * Runs of every project still queued or running, or ended without their completion published (the process died in
   * between): what a restarted local service must queue again, as SQS would still hold their messages. A table scan:
   * for the local store only, never called in the cloud.
   */
  async listUnfinished(): Promise<ReplayMessage[]> {
    const items = await scanAll({
      FilterExpression: 'entity = :run AND (#s IN (:q, :r) OR attribute_not_exists(completion_published) OR completion_published <> :t)',
      ExpressionAttributeNames: { '#s': 'status' },
      ExpressionAttributeValues: { ':run': 'run', ':q': 'queued', ':r': 'running', ':t': true },
      ProjectionExpression: 'project_id, run_id',
    });
    return items.map((i) => ({ project_id: String(i.project_id), run_id: String(i.run_id) }));
  }
}
