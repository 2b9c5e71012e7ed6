// Traces: a META item (summary, listed through gsi1) plus the gzip-compressed payload split across CHUNK items.
// The summary's free-form parts (metadata, tool schemas) are kept in META as JSON text (packJson in table.ts).
// OTLP traces also keep their merged spans (SPANS items) and a revision on META that every write is conditional on.
import { createHash, randomUUID } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { OtlpTraceState, Span } from '../../core/traces/otlp/types';
import type { Trace, TraceSummary } from '../../core/traces/schema';
import type { PageRequest, StorePage, TracesRepo } from '../../core/ports';
import { keys, stripKeys } from './keys';
import { batchGet, batchWrite, deleteRequest, getItem, packJson, putNew, putOwned, putRequest, queryAll, queryListing, unpackJson } from './table';

/** Below DynamoDB's 400 KB item limit with room for keys and attributes. */
const CHUNK_BYTES = 350 * 1024;
/** Reads that met chunks of another version (a write committed meanwhile) are made again, this many times in all. */
const READ_TRIES = 3;

type StoredSummary = TraceSummary & { content_hash: string; chunk_count: number };

/** OTLP bookkeeping on META, as JSON text: which SPANS chunks hold the spans, and when they last changed. */
interface OtlpMeta {
  otlp_trace_id: string;
  changed_at: string;
  content_hash?: string;
  spans_tag: string;
  spans_chunks: number;
}

/** What putOtlpState needs to know of the version it replaces: the chunks to delete once it is committed. */
interface OtlpRef {
  steps?: { tag: string; count: number };
  spans: { tag: string; count: number };
}

/** META attributes that are not part of a trace summary. */
const INTERNAL = ['upload_id', 'write_id', 'chunk_tag', 'otlp_revision', 'otlp_json', 'otlp_pending', 'expires_at'];

function summaryOf(trace: Trace): TraceSummary {
  const { steps: _steps, ...summary } = trace;
  return summary;
}

/** The META item's attributes: the summary with metadata and tools as JSON text. */
function metaAttributes(meta: StoredSummary): Record<string, unknown> {
  const { metadata, tools, ...rest } = meta;
  return { ...rest, metadata_json: packJson(metadata), tools_json: packJson(tools) };
}

/** The summary of a META item (items written before packing hold metadata and tools as maps). */
function metaFromItem(item: Record<string, unknown>): StoredSummary & { chunk_tag?: string } {
  const { metadata_json, tools_json, ...rest } = stripKeys<StoredSummary & { metadata_json?: string; tools_json?: string }>(item);
  const chunkTag = typeof item.chunk_tag === 'string' ? item.chunk_tag : undefined;
  for (const k of INTERNAL) delete (rest as Record<string, unknown>)[k];
  return {
    ...rest,
    metadata: unpackJson(metadata_json, rest.metadata),
    tools: unpackJson(tools_json, rest.tools),
    ...(chunkTag ? { chunk_tag: chunkTag } : {}),
  };
}

function publicSummary(meta: StoredSummary & { chunk_tag?: string }): TraceSummary {
  const { content_hash: _h, chunk_count: _c, chunk_tag: _t, ...summary } = meta;
  return summary;
}

function chunksOf(json: string): Buffer[] {
  const payload = gzipSync(Buffer.from(json), { level: 6 });
  const chunks: Buffer[] = [];
  for (let i = 0; i < payload.length; i += CHUNK_BYTES) chunks.push(payload.subarray(i, i + CHUNK_BYTES));
  return chunks;
}

/** The chunks under a sort-key prefix, in order, unzipped and parsed; null when not all `count` of them are there. */
function readChunks<T>(items: Record<string, unknown>[], prefix: string, count: number): T | null {
  const chunks = items
    .filter((i) => typeof i.sk === 'string' && i.sk.startsWith(prefix))
    .sort((a, b) => String(a.sk).localeCompare(String(b.sk)))
    .map((i) => Buffer.from(i.data as Uint8Array));
  if (chunks.length !== count) return null;
  return JSON.parse(gunzipSync(Buffer.concat(chunks)).toString('utf8')) as T;
}

/** A chunk tag unique to one revision of one content: a write never touches the chunks another revision reads. */
function tagOf(revision: number, json: string): string {
  return createHash('sha256').update(`${revision}\n`).update(json).digest('hex');
}

export class DynamoTracesRepo implements TracesRepo {
  async putIfAbsent(projectId: string, trace: Trace, contentHash: string) {
    const chunks = chunksOf(JSON.stringify(trace.steps));
    // Chunks go first and carry the content hash in their key, so a concurrent upload of other content under the
    // same id can never overwrite the chunks of the committed version; META is the commit record.
    await batchWrite(chunks.map((data, n) => putRequest({ ...keys.traceChunk(projectId, trace.trace_id, contentHash, n), data })));
    const meta: StoredSummary = { ...summaryOf(trace), content_hash: contentHash, chunk_count: chunks.length };
    // Only this call writes this token: a META carrying it is this upload's own write whose answer was lost, not an
    // identical upload that came first (same content and even the same millisecond).
    const uploadId = randomUUID();
    const created = await putNew(
      {
        ...keys.traceMeta(projectId, trace.trace_id),
        ...keys.traceList(projectId, trace.created_at, trace.trace_id),
        entity: 'trace',
        ...metaAttributes(meta),
        upload_id: uploadId,
      },
      (stored) => stored.upload_id === uploadId,
    );
    if (created) return { created: true };
    const existing = await this.getMeta(projectId, trace.trace_id, true);
    return { created: false, existing: existing ?? undefined };
  }

  /** The META of a visible trace (a pending OTLP trace is none). */
  private async getMeta(projectId: string, traceId: string, consistent = false) {
    const items = await queryAll({
      KeyConditionExpression: 'pk = :pk AND sk = :sk',
      ExpressionAttributeValues: { ':pk': keys.traceMeta(projectId, traceId).pk, ':sk': 'META' },
      ConsistentRead: consistent,
    });
    return items[0] && !items[0].otlp_pending ? metaFromItem(items[0]) : null;
  }

  async get(projectId: string, traceId: string): Promise<Trace | null> {
    for (let attempt = 1; ; attempt += 1) {
      // META and the steps' chunks sort before the SPANS items, which are not read here.
      const items = await queryAll({
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :first AND :meta',
        ExpressionAttributeValues: { ':pk': keys.traceMeta(projectId, traceId).pk, ':first': 'CHUNK#', ':meta': 'META' },
        ConsistentRead: attempt > 1,
      });
      const metaItem = items.find((i) => i.sk === 'META');
      if (!metaItem || metaItem.otlp_pending) return null;
      const meta = metaFromItem(metaItem);
      const steps = readChunks<Trace['steps']>(items, keys.traceChunkPrefix(meta.chunk_tag ?? meta.content_hash), meta.chunk_count);
      if (steps) return { ...publicSummary(meta), steps };
      // An OTLP trace changed between reading its chunks and its META: read again.
      if (attempt >= READ_TRIES) throw new Error(`trace ${traceId}: chunks of version ${meta.chunk_tag ?? meta.content_hash} not found`);
    }
  }

  async getSummary(projectId: string, traceId: string): Promise<TraceSummary | null> {
    const meta = await this.getMeta(projectId, traceId);
    return meta ? publicSummary(meta) : null;
  }

  async existing(projectId: string, traceIds: string[]): Promise<Set<string>> {
    const unique = [...new Set(traceIds)];
    const found = await batchGet(
      unique.map((id) => keys.traceMeta(projectId, id)),
      'trace_id, otlp_pending',
    );
    return new Set(found.filter((i) => !i.otlp_pending).map((i) => String(i.trace_id)));
  }

  async storedIds(projectId: string, traceIds: string[]): Promise<Set<string>> {
    const found = await batchGet(
      [...new Set(traceIds)].map((id) => keys.traceMeta(projectId, id)),
      'trace_id',
    );
    return new Set(found.map((i) => String(i.trace_id)));
  }

  async list(projectId: string, page: PageRequest): Promise<StorePage<TraceSummary>> {
    const res = await queryListing(keys.traceListPk(projectId), page);
    return { items: res.items.map((i) => publicSummary(metaFromItem(i))), last: res.last };
  }

  async getOtlpState(projectId: string, traceId: string) {
    for (let attempt = 1; ; attempt += 1) {
      // META and, after it, the SPANS chunks.
      const items = await queryAll({
        KeyConditionExpression: 'pk = :pk AND sk >= :meta',
        ExpressionAttributeValues: { ':pk': keys.traceMeta(projectId, traceId).pk, ':meta': 'META' },
        ConsistentRead: true,
      });
      const metaItem = items.find((i) => i.sk === 'META');
      if (!metaItem) return null;
      if (typeof metaItem.otlp_revision !== 'number') return 'native' as const;
      const otlp = JSON.parse(String(metaItem.otlp_json)) as OtlpMeta;
      const spans = readChunks<Span[]>(items, keys.traceSpansPrefix(otlp.spans_tag), otlp.spans_chunks);
      if (!spans) {
        if (attempt >= READ_TRIES) throw new Error(`trace ${traceId}: spans of revision ${metaItem.otlp_revision} not found`);
        continue;
      }
      const pending = Boolean(metaItem.otlp_pending);
      const meta = pending ? null : metaFromItem(metaItem);
      const ref: OtlpRef = {
        spans: { tag: otlp.spans_tag, count: otlp.spans_chunks },
        ...(meta ? { steps: { tag: meta.chunk_tag ?? meta.content_hash, count: meta.chunk_count } } : {}),
      };
      const state: OtlpTraceState = {
        revision: metaItem.otlp_revision,
        otlp_trace_id: otlp.otlp_trace_id,
        spans,
        changed_at: otlp.changed_at,
        ...(otlp.content_hash ? { content_hash: otlp.content_hash } : {}),
        ref,
      };
      return { state, trace: meta ? publicSummary(meta) : null };
    }
  }

  async putOtlpState(
    projectId: string,
    write: { traceId: string; state: OtlpTraceState; trace: Trace | null; expiresAt?: number },
    previous: OtlpTraceState | null,
  ): Promise<boolean> {
    const { traceId: tid, state, trace, expiresAt } = write;
    const ttl = expiresAt === undefined ? {} : { expires_at: expiresAt };
    const spansJson = JSON.stringify(state.spans);
    const spansTag = tagOf(state.revision, spansJson);
    const spansChunks = chunksOf(spansJson);
    const requests = spansChunks.map((data, n) => putRequest({ ...keys.traceSpans(projectId, tid, spansTag, n), data, ...ttl }));
    const otlp: OtlpMeta = {
      otlp_trace_id: state.otlp_trace_id,
      changed_at: state.changed_at,
      ...(state.content_hash ? { content_hash: state.content_hash } : {}),
      spans_tag: spansTag,
      spans_chunks: spansChunks.length,
    };
    const writeId = randomUUID();
    let meta: Record<string, unknown> = { ...keys.traceMeta(projectId, tid), entity: 'trace', trace_id: tid, otlp_pending: true, ...ttl };
    let stepsRef: OtlpRef['steps'];
    if (trace) {
      const stepsJson = JSON.stringify(trace.steps);
      const stepsTag = tagOf(state.revision, stepsJson);
      const stepsChunks = chunksOf(stepsJson);
      requests.push(...stepsChunks.map((data, n) => putRequest({ ...keys.traceChunk(projectId, tid, stepsTag, n), data })));
      stepsRef = { tag: stepsTag, count: stepsChunks.length };
      meta = {
        ...keys.traceMeta(projectId, tid),
        ...keys.traceList(projectId, trace.created_at, tid),
        entity: 'trace',
        ...metaAttributes({ ...summaryOf(trace), content_hash: state.content_hash ?? stepsTag, chunk_count: stepsChunks.length }),
        chunk_tag: stepsTag,
      };
    }
    // Chunks first, META last: META is the commit record, and its condition on the revision orders the writers.
    await batchWrite(requests);
    const item = { ...meta, otlp_revision: state.revision, otlp_json: packJson(otlp), write_id: writeId };
    const condition = previous
      ? { ConditionExpression: 'otlp_revision = :rev', ExpressionAttributeValues: { ':rev': previous.revision } }
      : { ConditionExpression: 'attribute_not_exists(pk)' };
    const committed = await putOwned({ Item: item, ...condition }, (stored) => stored.write_id === writeId);
    if (!committed) {
      await this.dropLosingChunks(projectId, tid, { spans: { tag: spansTag, count: spansChunks.length }, steps: stepsRef });
      return false;
    }
    // The replaced revision's chunks are no longer read (a reader that met them half-deleted reads again).
    const old = previous?.ref as OtlpRef | undefined;
    if (old) {
      const stale = [
        ...Array.from({ length: old.spans.count }, (_, n) => keys.traceSpans(projectId, tid, old.spans.tag, n)),
        ...(old.steps && old.steps.tag !== stepsRef?.tag
          ? Array.from({ length: old.steps.count }, (_, n) => keys.traceChunk(projectId, tid, old.steps!.tag, n))
          : []),
      ];
      await batchWrite(stale.map((element) => deleteRequest(element))).catch(() => undefined);
    }
    return true;
  }

  /**
   * A write that lost its race leaves chunks no META names. They are deleted unless the winner wrote the very same ones
   * (same revision, same content, so the same keys); a later revision's writer deletes those with the rest.
   */
  private async dropLosingChunks(projectId: string, tid: string, mine: OtlpRef): Promise<void> {
    const meta = await getItem(keys.traceMeta(projectId, tid), true);
    const theirs = typeof meta?.otlp_json === 'string' ? (JSON.parse(meta.otlp_json) as OtlpMeta).spans_tag : undefined;
    const doomed = [
      ...(theirs === mine.spans.tag ? [] : Array.from({ length: mine.spans.count }, (_, n) => keys.traceSpans(projectId, tid, mine.spans.tag, n))),
      ...(mine.steps && meta?.chunk_tag !== mine.steps.tag
        ? Array.from({ length: mine.steps.count }, (_, n) => keys.traceChunk(projectId, tid, mine.steps!.tag, n))
        : []),
    ];
    await batchWrite(doomed.map((element) => deleteRequest(element))).catch(() => undefined);
  }
}
