// Free-form JSON (trace metadata and tools, campaign definitions, the criteria an attempt is scored by) survives the
// store: empty object keys and nesting past 32 levels (DynamoDB Local and DynamoDB refuse both in maps; dynalite took
// them) and numbers beyond 2^53 (the SDK refuses to marshal them). Items written before the JSON-text attributes still
// read back.
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoCampaignsRepo } from '../../functions/adapters/dynamodb/campaigns-repo';
import { keys } from '../../functions/adapters/dynamodb/keys';
import { DynamoRunsRepo } from '../../functions/adapters/dynamodb/runs-repo';
import { DynamoTracesRepo } from '../../functions/adapters/dynamodb/traces-repo';
import { campaignInputSchema, type Campaign } from '../../functions/core/campaigns/schema';
import type { AttemptRecord } from '../../functions/core/runs/types';
import type { Trace } from '../../functions/core/traces/schema';
import { dynamoDocClient } from '../../functions/adapters/dynamodb/client';
import { startDynalite, type TestTable } from '../helpers/dynalite';
import { recordedCampaign, uuid } from '../helpers/fixtures';

/** `{a: {a: ... 1}}`, `levels` maps deep. */
const nest = (levels: number): unknown => (levels === 0 ? 1 : { a: nest(levels - 1) });

/** JSON that DynamoDB cannot hold as a map: empty keys at the top and nested, a number beyond 2^53, 33 levels. */
const AWKWARD = { '': 1, nested: { '': ['x'] }, big: 1e20, list: [{ '': null }], deep: nest(32) };

let table: TestTable;
const projectId = uuid();

beforeAll(async () => {
  table = await startDynalite();
});
afterAll(() => table.close());

function trace(overrides: Partial<Trace> = {}): Trace {
  return {
    trace_id: uuid(),
    name: 'awkward',
    tools: [{ name: 'lookup', parameters: { type: 'object', properties: { '': { type: 'string' } } } }],
    steps: [{ role: 'user', content: 'hi' }],
    metadata: AWKWARD,
    tags: [],
    created_at: new Date().toISOString(),
    step_count: 1,
    tool_call_count: 0,
    size_bytes: 10,
    ...overrides,
  };
}

function campaign(): Campaign {
  const input = campaignInputSchema.parse(
    recordedCampaign({
      policies: [{ id: 'p', type: 'argument_constraint', tool: 'refund_order', argument: 'amount', max: 1e20, enum: [AWKWARD] }],
      criteria: [{ type: 'tool_called', tool: 'refund_order', arguments: AWKWARD }],
    }),
  );
  return { ...input, campaign_id: uuid(), created_at: new Date().toISOString(), version: 1, eval_set: { trace_count: 0, min_scenarios: 0 } };
}

function attempt(runId: string, criterionArgs: Record<string, unknown>): AttemptRecord {
  return {
    run_id: runId,
    attempt: 1,
    mutation_id: null,
    repeat: 1,
    status: 'failed',
    unsafe: false,
    checks: [{ criterion: { type: 'tool_called', tool: 'refund_order', arguments: criterionArgs }, passed: false, detail: 'never called' }],
    steps: 1,
    duration_ms: 5,
    error: null,
    started_at: '2026-01-01T00:00:00.000Z',
    completed_at: '2026-01-01T00:00:01.000Z',
    output: 'done',
    transcript: [],
    policy_events: [],
    security_events: [],
  };
}

describe('free-form JSON in the store', () => {
  it('keeps trace metadata and tools with empty keys, 33 levels and big numbers, in the trace, its summary and the listing', async () => {
    // Prepare
    const repo = new DynamoTracesRepo();
    const t = trace();
    // Act
    const put = await repo.putIfAbsent(projectId, t, 'a'.repeat(64));
    // Assess
    expect(put.created).toBe(true);
    expect(await repo.get(projectId, t.trace_id)).toEqual(t);
    expect((await repo.getSummary(projectId, t.trace_id))?.metadata).toEqual(AWKWARD);
    const listed = (await repo.list(projectId, { limit: 10 })).items.find((i) => i.trace_id === t.trace_id);
    expect(listed?.tools).toEqual(t.tools);
  });

  it('keeps a campaign definition with empty keys, 33 levels and big numbers through get and list', async () => {
    // Prepare
    const repo = new DynamoCampaignsRepo();
    const c = campaign();
    // Act
    await repo.put(projectId, c);
    // Assess
    expect(await repo.get(projectId, c.campaign_id)).toEqual(c);
    expect((await repo.list(projectId, { limit: 10 })).items.find((i) => i.campaign_id === c.campaign_id)).toEqual(c);
  });

  it('stores an attempt scored by criteria with empty keys and 33 levels exactly once and lists it back', async () => {
    // Prepare
    const repo = new DynamoRunsRepo();
    const a = attempt(uuid(), AWKWARD);
    // Act
    const first = await repo.putAttempt(projectId, a);
    const again = await repo.putAttempt(projectId, a);
    // Assess
    expect([first, again]).toEqual([true, false]);
    expect(await repo.listAttempts(projectId, a.run_id)).toEqual([a]);
  });

  it('reads traces, campaigns and attempts written before the JSON-text attributes (native maps)', async () => {
    // Prepare: the item shapes of the previous release, written directly
    const t = trace({ metadata: { env: 'prod', n: 3 }, tools: [{ name: 'lookup', parameters: { type: 'object' } }] });
    const { steps: _s, ...summary } = t;
    const c = campaign();
    const { eval_set, ...campaignRest } = c;
    const legacyCampaign = { ...campaignRest, criteria: [{ type: 'completes' as const }], policies: [] };
    const a = attempt(uuid(), { order_id: '1234' });
    const { transcript: _t, policy_events: _p, security_events: _e, ...score } = a;
    const doc = dynamoDocClient();
    const put = (Item: Record<string, unknown>) => doc.send(new PutCommand({ TableName: table.tableName, Item }));
    await new DynamoTracesRepo().putIfAbsent(projectId, t, 'b'.repeat(64));
    await put({
      ...keys.traceMeta(projectId, t.trace_id),
      ...keys.traceList(projectId, t.created_at, t.trace_id),
      entity: 'trace',
      ...summary,
      content_hash: 'b'.repeat(64),
      chunk_count: 1,
    });
    await put({
      ...keys.campaign(projectId, c.campaign_id),
      ...keys.campaignList(projectId, c.created_at, c.campaign_id),
      entity: 'campaign',
      ...legacyCampaign,
      min_scenarios: eval_set.min_scenarios,
    });
    await put({ ...keys.attempt(projectId, a.run_id, 1), entity: 'attempt', ...score, policy_event_count: 0, security_event_count: 0 });
    // Act
    const [readTrace, readCampaign, readAttempts] = await Promise.all([
      new DynamoTracesRepo().get(projectId, t.trace_id),
      new DynamoCampaignsRepo().get(projectId, c.campaign_id),
      new DynamoRunsRepo().listAttempts(projectId, a.run_id),
    ]);
    // Assess
    expect(readTrace).toEqual(t);
    expect(readCampaign).toEqual({ ...legacyCampaign, eval_set });
    expect(readAttempts).toEqual([a]);
  });
});
