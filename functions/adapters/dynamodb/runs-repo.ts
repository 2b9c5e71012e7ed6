// Runs: META (listed through gsi1), one ATTEMPT item per finished attempt, holding its score, its policy and security
// events and its transcript, compressed (attempt-item.ts): one conditional put stores an attempt exactly once; and the
// PUBLISHED mark once its completion is on the bus. Also the run-packs that queued runs together (one PACK item each).
import type { AttemptRecord, PolicyEvent, Run, RunPack, RunStatus, SecurityEvent } from '../../core/runs/types';
import type { PageRequest, ReplayMessage, RunFilter, RunsRepo, StorePage } from '../../core/ports';
import { keys, stripKeys } from './keys';
import { Lru } from './lru';
import { decodeAttempt, storedAttemptAttributes } from './attempt-item';
import { decodeRun, runItem, runUpdate } from './run-item';
import { batchWrite, getItem, putIf, putNew, putRequest, queryAll, queryListing, queryPage, scanAll, updateExisting } from './table';

/** Scores of terminal runs (immutable), without transcripts. */
const finalScores = new Lru<AttemptRecord[]>(500);

/** BatchWriteItem calls in flight while a batch's runs are stored (1,000 runs: 40 calls of 25). */
const RUN_CHUNKS_IN_FLIGHT = 4;

export class DynamoRunsRepo implements RunsRepo {
  async create(run: Run): Promise<void> {
    const stored = await putNew(
      runItem(run),
      // A fresh id: the item under it is this call's own write when the put's answer was lost.
      (item) => {
        const stored = decodeRun(item);
        return stored.created_at === run.created_at && stored.trace_id === run.trace_id && stored.campaign_id === run.campaign_id;
      },
    );
    if (!stored) throw new Error(`run ${run.run_id} already exists`);
  }

  async createMany(runs: Run[]): Promise<void> {
    // New runs, each under its own key: the chunks need no order, so RUN_CHUNKS_IN_FLIGHT are written at once.
    await batchWrite(
      runs.map((r) => putRequest(runItem(r))),
      { inFlight: RUN_CHUNKS_IN_FLIGHT },
    );
  }

  async get(projectId: string, runId: string): Promise<Run | null> {
    const item = await getItem(keys.run(projectId, runId), true);
    return item ? decodeRun(item) : null;
  }

  async list(projectId: string, filter: RunFilter, page: PageRequest): Promise<StorePage<Run>> {
    const res = await queryListing(keys.runListPk(projectId), page, { ...filter });
    return { items: res.items.map((i) => decodeRun(i)), last: res.last };
  }

  async transition(projectId: string, runId: string, from: RunStatus[], patch: Partial<Run>): Promise<Run | null> {
    // Ending the run: the only write that moves it from an active status to an ended one, so made once per run (an
    // ended run is never moved back), which the compressed result relies on (run-item.ts).
    const active = (s: RunStatus | undefined) => s === 'queued' || s === 'running';
    if (active(patch.status) && !from.every((s) => active(s))) throw new Error(`run ${runId}: an ended run is not moved back to ${patch.status}`);
    const ending = patch.status !== undefined && !active(patch.status) && from.every((s) => active(s));
    const u = runUpdate(patch, ending);
    const fromValues = Object.fromEntries(from.map((s, i) => [`:from${i}`, s]));
    const updated = await updateExisting({
      Key: keys.run(projectId, runId),
      UpdateExpression: u.expr,
      ConditionExpression: `#status IN (${Object.keys(fromValues).join(', ')})`,
      ExpressionAttributeNames: { ...u.names, '#status': 'status' },
      ExpressionAttributeValues: { ...u.values, ...fromValues },
    });
    return updated && decodeRun(updated);
  }

  async update(projectId: string, runId: string, patch: Partial<Omit<Run, 'status'>>): Promise<void> {
    const u = runUpdate(patch);
    if (Object.keys(u.names).length === 0) return;
    const updated = await updateExisting({
      Key: keys.run(projectId, runId),
      UpdateExpression: u.expr,
      ExpressionAttributeNames: u.names,
      ...(Object.keys(u.values).length ? { ExpressionAttributeValues: u.values } : {}),
      ReturnValues: 'NONE',
    });
    if (!updated) throw new Error(`run ${runId} does not exist`);
  }

  async markPublished(projectId: string, runId: string): Promise<void> {
    // ~200 bytes, 1 write unit; the same flag set on META was billed at the finished run's size (~1.7 KB, 2 units).
    await putIf({ Item: { ...keys.runPublished(projectId, runId), entity: 'run_published', project_id: projectId, run_id: runId } });
  }

  async isPublished(projectId: string, runId: string): Promise<boolean> {
    // META's own flag is the mark of runs stored before the mark had an item (local stores of earlier versions).
    const { pk, sk: meta } = keys.run(projectId, runId);
    const items = await queryAll({
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :meta AND :published',
      ExpressionAttributeValues: { ':pk': pk, ':meta': meta, ':published': keys.runPublished(projectId, runId).sk },
      ProjectionExpression: 'sk, completion_published',
      ConsistentRead: true,
    });
    return items.some((i) => i.sk !== meta || i.completion_published === true);
  }

  async putAttempt(projectId: string, attempt: AttemptRecord): Promise<boolean> {
    // Events travel inside the attempt item, compressed: one conditional put stores an attempt and everything it
    // produced atomically, so a re-run after a crash can neither double-write nor leave half an attempt behind.
    // false when the attempt is already stored (another delivery, or this one's lost answer): the executor re-reads.
    return putNew({ ...keys.attempt(projectId, attempt.run_id, attempt.attempt), entity: 'attempt', ...storedAttemptAttributes(attempt) });
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
        const attempt = decodeAttempt(item, runId, true);
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
    return item ? decodeAttempt(item, runId, true) : null;
  }

  private async queryAttempts(projectId: string, runId: string, opts: { transcripts?: boolean }): Promise<AttemptRecord[]> {
    const items = await queryAll({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
      ExpressionAttributeValues: { ':pk': keys.run(projectId, runId).pk, ':p': keys.attemptPrefix },
      ConsistentRead: true,
    });
    return items.map((i) => decodeAttempt(i, runId, opts.transcripts !== false));
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
      FilterExpression: 'entity IN (:run, :published)',
      ExpressionAttributeNames: { '#s': 'status' },
      ExpressionAttributeValues: { ':run': 'run', ':published': 'run_published' },
      // The ids are the key's (a run's META item no longer holds them as attributes).
      ProjectionExpression: 'pk, entity, #s, completion_published',
    });
    const published = new Set(items.filter((i) => i.entity === 'run_published' || i.completion_published === true).map((i) => i.pk));
    return items
      .filter((i) => i.entity === 'run' && (i.status === 'queued' || i.status === 'running' || !published.has(i.pk)))
      .map((i) => {
        const [, projectId, runId] = String(i.pk).split('#');
        return { project_id: projectId, run_id: runId };
      });
  }
}
