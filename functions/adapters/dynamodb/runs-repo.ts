// Runs: META (listed through gsi1), one ATTEMPT item per finished attempt (the commit record), and one item per
// policy/security event, keyed by attempt and sequence so a re-run attempt rewrites the same keys.
import { gunzipSync, gzipSync } from 'node:zlib';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { AttemptRecord, PolicyEvent, Run, RunStatus, SecurityEvent } from '../../core/runs/types';
import type { PageRequest, RunFilter, RunsRepo, StorePage } from '../../ports';
import { clampDepth } from '../../core/json';
import { keys, stripKeys } from './keys';
import { Lru } from './lru';

/** Scores of terminal runs (immutable), without transcripts. */
const finalScores = new Lru<AttemptRecord[]>(500);
import { batchWrite, deleteRequest, doc, isConditionalFailure, putRequest, queryAll, queryPage, tableName } from './table';

/** Agent-chosen tool arguments are stored with at most this nesting (DynamoDB's limit is 32 levels per item). */
const EVENT_ARGS_DEPTH = 20;

/** Above this the transcript is dropped from the item (scores and events are always kept). */
const MAX_TRANSCRIPT_BYTES = 300 * 1024;

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

export class DynamoRunsRepo implements RunsRepo {
  async create(run: Run): Promise<void> {
    await doc().send(new PutCommand({ TableName: tableName(), Item: runItem(run), ConditionExpression: 'attribute_not_exists(pk)' }));
  }

  async createMany(runs: Run[]): Promise<void> {
    await batchWrite(runs.map((r) => putRequest(runItem(r))));
  }

  async get(projectId: string, runId: string): Promise<Run | null> {
    const res = await doc().send(new GetCommand({ TableName: tableName(), Key: keys.run(projectId, runId), ConsistentRead: true }));
    return res.Item ? stripKeys<Run>(res.Item) : null;
  }

  async list(projectId: string, filter: RunFilter, page: PageRequest): Promise<StorePage<Run>> {
    const conds: string[] = [];
    const names: Record<string, string> = {};
    const values: Record<string, unknown> = { ':pk': keys.runListPk(projectId) };
    for (const [field, value] of Object.entries(filter)) {
      if (value === undefined) continue;
      names[`#${field}`] = field;
      values[`:${field}`] = value;
      conds.push(`#${field} = :${field}`);
    }
    const res = await queryPage({
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ...(conds.length ? { FilterExpression: conds.join(' AND '), ExpressionAttributeNames: names } : {}),
      ExpressionAttributeValues: values,
      ScanIndexForward: false,
      Limit: page.limit,
      ExclusiveStartKey: page.after,
    });
    return { items: res.items.map((i) => stripKeys<Run>(i)), last: res.last };
  }

  async transition(projectId: string, runId: string, from: RunStatus[], patch: Partial<Run>): Promise<Run | null> {
    const u = buildUpdate(patch as Record<string, unknown>);
    const fromValues = Object.fromEntries(from.map((s, i) => [`:from${i}`, s]));
    try {
      const res = await doc().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.run(projectId, runId),
          UpdateExpression: u.expr,
          ConditionExpression: `attribute_exists(pk) AND #status IN (${Object.keys(fromValues).join(', ')})`,
          ExpressionAttributeNames: { ...u.names, '#status': 'status' },
          ExpressionAttributeValues: { ...u.values, ...fromValues },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return stripKeys<Run>(res.Attributes as Record<string, unknown>);
    } catch (err) {
      if (isConditionalFailure(err)) return null;
      throw err;
    }
  }

  async update(projectId: string, runId: string, patch: Partial<Run>): Promise<void> {
    const u = buildUpdate(patch as Record<string, unknown>);
    if (Object.keys(u.names).length === 0) return;
    await doc().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.run(projectId, runId),
        UpdateExpression: u.expr,
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: u.names,
        ExpressionAttributeValues: u.values,
      }),
    );
  }

  async putAttempt(projectId: string, attempt: AttemptRecord, opts: { firstDelivery?: boolean } = {}): Promise<boolean> {
    const key = keys.attempt(projectId, attempt.run_id, attempt.attempt);
    let stale: { pk: unknown; sk: unknown }[] = [];
    if (!opts.firstDelivery) {
      const existing = await doc().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true, ProjectionExpression: 'pk' }));
      if (existing.Item) return false;
      // Events of an earlier, interrupted execution of this attempt are replaced, never mixed with the new ones.
      stale = [
        ...(await this.attemptEventKeys(projectId, attempt.run_id, 'PEV', attempt.attempt)),
        ...(await this.attemptEventKeys(projectId, attempt.run_id, 'SEV', attempt.attempt)),
      ];
    }
    const fresh = new Set<string>();
    const writes = [
      ...attempt.policy_events.map((e) => {
        const k = keys.policyEvent(projectId, attempt.run_id, attempt.attempt, e.sequence);
        fresh.add(k.sk);
        return putRequest({ ...k, entity: 'policy_event', ...e, arguments: clampDepth(e.arguments, EVENT_ARGS_DEPTH) });
      }),
      ...attempt.security_events.map((e) => {
        const k = keys.securityEvent(projectId, attempt.run_id, attempt.attempt, e.sequence);
        fresh.add(k.sk);
        return putRequest({ ...k, entity: 'security_event', ...e });
      }),
    ];
    await batchWrite([...stale.filter((k) => !fresh.has(String(k.sk))).map((k) => deleteRequest(k)), ...writes]);

    const { transcript, policy_events: _p, security_events: _s, ...score } = attempt;
    const packed = gzipSync(Buffer.from(JSON.stringify(transcript)));
    const transcriptAttr = packed.length <= MAX_TRANSCRIPT_BYTES ? { transcript_gz: packed } : { transcript_dropped: true };
    try {
      await doc().send(
        new PutCommand({
          TableName: tableName(),
          Item: {
            ...key,
            entity: 'attempt',
            ...score,
            ...transcriptAttr,
            policy_event_count: attempt.policy_events.length,
            security_event_count: attempt.security_events.length,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
      return true;
    } catch (err) {
      if (isConditionalFailure(err)) return false;
      throw err;
    }
  }

  private async attemptEventKeys(projectId: string, runId: string, kind: 'PEV' | 'SEV', attempt: number) {
    const items = await queryAll({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
      ExpressionAttributeValues: { ':pk': keys.run(projectId, runId).pk, ':p': keys.attemptEventsPrefix(kind, attempt) },
      ProjectionExpression: 'pk, sk',
      ConsistentRead: true,
    });
    return items.map((i) => ({ pk: i.pk, sk: i.sk }));
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

  private async queryAttempts(projectId: string, runId: string, opts: { transcripts?: boolean }): Promise<AttemptRecord[]> {
    const items = await queryAll({
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :a AND :z',
      ExpressionAttributeValues: { ':pk': keys.run(projectId, runId).pk, ':a': 'ATTEMPT#', ':z': 'SEV#~' },
      ConsistentRead: true,
    });
    const attempts = items.filter((i) => String(i.sk).startsWith(keys.attemptPrefix));
    const pev = new Map<number, PolicyEvent[]>();
    const sev = new Map<number, SecurityEvent[]>();
    for (const i of items) {
      const sk = String(i.sk);
      if (sk.startsWith(keys.policyEventPrefix)) push(pev, stripKeys<PolicyEvent>(i));
      else if (sk.startsWith(keys.securityEventPrefix)) push(sev, stripKeys<SecurityEvent>(i));
    }
    return attempts.map((i) => {
      const { transcript_gz, transcript_dropped, policy_event_count: _pc, security_event_count: _sc, ...score } = stripKeys<
        AttemptRecord & { transcript_gz?: Uint8Array; transcript_dropped?: boolean; policy_event_count?: number; security_event_count?: number }
      >(i);
      const transcript = transcript_gz && opts.transcripts !== false ? JSON.parse(gunzipSync(Buffer.from(transcript_gz)).toString('utf8')) : [];
      return {
        ...score,
        transcript,
        ...(transcript_dropped ? { transcript_dropped: true } : {}),
        policy_events: pev.get(score.attempt) ?? [],
        security_events: sev.get(score.attempt) ?? [],
      } as AttemptRecord;
    });
  }

  async listPolicyEvents(projectId: string, runId: string, page: PageRequest): Promise<StorePage<PolicyEvent>> {
    const res = await queryPage({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
      ExpressionAttributeValues: { ':pk': keys.run(projectId, runId).pk, ':p': keys.policyEventPrefix },
      Limit: page.limit,
      ExclusiveStartKey: page.after,
    });
    return { items: res.items.map((i) => stripKeys<PolicyEvent>(i)), last: res.last };
  }

  async listSecurityEvents(projectId: string, runId: string): Promise<SecurityEvent[]> {
    const items = await queryAll({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
      ExpressionAttributeValues: { ':pk': keys.run(projectId, runId).pk, ':p': keys.securityEventPrefix },
    });
    return items.map((i) => stripKeys<SecurityEvent>(i));
  }
}

function push<T extends { attempt: number }>(map: Map<number, T[]>, e: T) {
  const list = map.get(e.attempt);
  if (list) list.push(e);
  else map.set(e.attempt, [e]);
}
