// Traces: a META item (summary, listed through gsi1) plus the gzip-compressed payload split across CHUNK items.
// The summary's free-form parts (metadata, tool schemas) are kept in META as JSON text (packJson in table.ts).
import { randomUUID } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { Trace, TraceSummary } from '../../core/traces/schema';
import type { PageRequest, StorePage, TracesRepo } from '../../ports';
import { keys, stripKeys } from './keys';
import { batchGet, batchWrite, packJson, putNew, putRequest, queryAll, queryListing, unpackJson } from './table';

/** Below DynamoDB's 400 KB item limit with room for keys and attributes. */
const CHUNK_BYTES = 350 * 1024;

type StoredSummary = TraceSummary & { content_hash: string; chunk_count: number };

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
function metaFromItem(item: Record<string, unknown>): StoredSummary {
  const {
    metadata_json,
    tools_json,
    upload_id: _u,
    ...rest
  } = stripKeys<StoredSummary & { metadata_json?: string; tools_json?: string; upload_id?: string }>(item);
  return { ...rest, metadata: unpackJson(metadata_json, rest.metadata), tools: unpackJson(tools_json, rest.tools) };
}

export class DynamoTracesRepo implements TracesRepo {
  async putIfAbsent(projectId: string, trace: Trace, contentHash: string) {
    const payload = gzipSync(Buffer.from(JSON.stringify(trace.steps)), { level: 6 });
    const chunks: Buffer[] = [];
    for (let i = 0; i < payload.length; i += CHUNK_BYTES) chunks.push(payload.subarray(i, i + CHUNK_BYTES));
    // Chunks go first and carry the content hash in their key, so a concurrent upload of other content under
    // the same id can never overwrite the chunks of the committed version; META is the commit record.
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

  private async getMeta(projectId: string, traceId: string, consistent = false): Promise<StoredSummary | null> {
    const items = await queryAll({
      KeyConditionExpression: 'pk = :pk AND sk = :sk',
      ExpressionAttributeValues: { ':pk': keys.traceMeta(projectId, traceId).pk, ':sk': 'META' },
      ConsistentRead: consistent,
    });
    return items[0] ? metaFromItem(items[0]) : null;
  }

  async get(projectId: string, traceId: string): Promise<Trace | null> {
    const items = await queryAll({ KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': keys.traceMeta(projectId, traceId).pk } });
    const metaItem = items.find((i) => i.sk === 'META');
    if (!metaItem) return null;
    const meta = metaFromItem(metaItem);
    const prefix = keys.traceChunkPrefix(meta.content_hash);
    const chunks = items
      .filter((i) => typeof i.sk === 'string' && i.sk.startsWith(prefix))
      .sort((a, b) => String(a.sk).localeCompare(String(b.sk)))
      .map((i) => Buffer.from(i.data as Uint8Array));
    if (chunks.length !== meta.chunk_count) throw new Error(`trace ${traceId}: ${chunks.length}/${meta.chunk_count} chunks found`);
    const steps = JSON.parse(gunzipSync(Buffer.concat(chunks)).toString('utf8')) as Trace['steps'];
    const { content_hash: _h, chunk_count: _c, ...summary } = meta;
    return { ...summary, steps };
  }

  async getSummary(projectId: string, traceId: string): Promise<TraceSummary | null> {
    const meta = await this.getMeta(projectId, traceId);
    if (!meta) return null;
    const { content_hash: _h, chunk_count: _c, ...summary } = meta;
    return summary;
  }

  async existing(projectId: string, traceIds: string[]): Promise<Set<string>> {
    const unique = [...new Set(traceIds)];
    const found = await batchGet(
      unique.map((id) => keys.traceMeta(projectId, id)),
      'trace_id',
    );
    return new Set(found.map((i) => String(i.trace_id)));
  }

  async list(projectId: string, page: PageRequest): Promise<StorePage<TraceSummary>> {
    const res = await queryListing(keys.traceListPk(projectId), page);
    return {
      items: res.items.map((i) => {
        const { content_hash: _h, chunk_count: _c, ...summary } = metaFromItem(i);
        return summary;
      }),
      last: res.last,
    };
  }
}
