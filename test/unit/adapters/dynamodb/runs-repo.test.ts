// DynamoRunsRepo against dynalite: runs created and listed, conditional transitions, attempts stored exactly once with
// their events and transcripts, event listings and run-packs (published marks, resumed runs: runs-repo-resume.test.ts).
import { randomBytes, randomUUID } from 'node:crypto';
import { DynamoRunsRepo } from '../../../../functions/adapters/dynamodb/runs-repo';
import { EMPTY_SUMMARY, type PolicyEvent, type Run, type RunPack, type SecurityEvent } from '../../../../functions/core/runs/types';
import type { RunFilter } from '../../../../functions/core/ports';
import { startDynalite, type TestTable } from '../../../helpers/dynalite';
import { AT, makeAttempt, makeRun } from '../../../helpers/run-records';

let table: TestTable;

beforeAll(async () => {
  table = await startDynalite();
});
afterAll(() => table.close());

function policyEvent(runId: string, attempt: number, sequence: number): PolicyEvent {
  return {
    event_id: randomUUID(),
    run_id: runId,
    attempt,
    sequence,
    step: 1,
    policy_id: 'no-delete',
    policy_type: 'deny_tools',
    decision: 'deny',
    tool: 'delete_order',
    arguments: { order_id: '1234' },
    reason: 'tool delete_order is denied',
    created_at: AT,
  };
}

function securityEvent(runId: string, attempt: number, sequence: number): SecurityEvent {
  return {
    event_id: randomUUID(),
    run_id: runId,
    attempt,
    sequence,
    step: 2,
    kind: 'prompt_injection',
    action: 'detected',
    risk: { score: 80, level: 'high' },
    source: { type: 'tool_result', tool: 'lookup_order' },
    evidence: 'ignore previous instructions',
    mutation_id: 'inject-1',
    created_at: AT,
  };
}

/** Every run of a listing, following the pages (a filtered page may be short or empty). */
async function listAll(repo: DynamoRunsRepo, projectId: string, filter: RunFilter, limit = 2): Promise<Run[]> {
  const out: Run[] = [];
  let after: Record<string, unknown> | undefined;
  do {
    const page = await repo.list(projectId, filter, { limit, after });
    out.push(...page.items);
    after = page.last;
  } while (after);
  return out;
}

describe('DynamoRunsRepo runs', () => {
  it('creates a run and reads it back', async () => {
    // Prepare
    const repo = new DynamoRunsRepo();
    const run = makeRun();
    // Act
    await repo.create(run);
    // Assess
    expect(await repo.get(run.project_id, run.run_id)).toEqual(run);
  });

  it('refuses a second create under the same run id and keeps the first', async () => {
    // Prepare
    const repo = new DynamoRunsRepo();
    const run = makeRun();
    await repo.create(run);
    // Act
    const again = repo.create({ ...run, trace_id: randomUUID() });
    // Assess
    await expect(again).rejects.toThrow(`run ${run.run_id} already exists`);
    expect((await repo.get(run.project_id, run.run_id))?.trace_id).toBe(run.trace_id);
  });

  it('creates 30 runs at once (more than one batch of 25)', async () => {
    // Prepare
    const repo = new DynamoRunsRepo();
    const pid = randomUUID();
    const runs = Array.from({ length: 30 }, () => makeRun({ project_id: pid }));
    // Act
    await repo.createMany(runs);
    // Assess
    const read = await Promise.all(runs.map((r) => repo.get(pid, r.run_id)));
    expect(read).toEqual(runs);
  });

  it('answers null for a run that does not exist or belongs to another project', async () => {
    // Prepare
    const repo = new DynamoRunsRepo();
    const run = makeRun();
    await repo.create(run);
    // Act
    const [missing, foreign] = await Promise.all([repo.get(run.project_id, randomUUID()), repo.get(randomUUID(), run.run_id)]);
    // Assess
    expect([missing, foreign]).toEqual([null, null]);
  });

  it('lists the runs of a project newest first, a page at a time', async () => {
    // Prepare
    const repo = new DynamoRunsRepo();
    const pid = randomUUID();
    const runs = [1, 2, 3].map((d) => makeRun({ project_id: pid, created_at: `2026-11-0${d}T00:00:00.000000+00:00` }));
    await repo.createMany([...runs, makeRun()]);
    // Act
    const first = await repo.list(pid, {}, { limit: 2 });
    const second = await repo.list(pid, {}, { limit: 2, after: first.last });
    // Assess
    expect(first.items).toEqual([runs[2], runs[1]]);
    expect(second.items).toEqual([runs[0]]);
    expect(second.last).toBeUndefined();
  });

  it('lists only the runs matching every filter given (campaign, trace, status)', async () => {
    // Prepare
    const repo = new DynamoRunsRepo();
    const pid = randomUUID();
    const [c1, c2, t1, t2] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    const day = (d: number) => `2026-11-0${d}T00:00:00.000000+00:00`;
    const runs = [
      makeRun({ project_id: pid, campaign_id: c1, trace_id: t1, status: 'queued', created_at: day(1) }),
      makeRun({ project_id: pid, campaign_id: c1, trace_id: t2, status: 'completed', created_at: day(2) }),
      makeRun({ project_id: pid, campaign_id: c2, trace_id: t1, status: 'completed', created_at: day(3) }),
      makeRun({ project_id: pid, campaign_id: c1, trace_id: t1, status: 'completed', created_at: day(4) }),
    ];
    await repo.createMany(runs);
    // Act
    const [byCampaign, byTrace, byStatus, byAll] = await Promise.all([
      listAll(repo, pid, { campaign_id: c1 }),
      listAll(repo, pid, { trace_id: t1 }),
      listAll(repo, pid, { status: 'completed' }),
      listAll(repo, pid, { campaign_id: c1, trace_id: t1, status: 'completed' }),
    ]);
    // Assess
    const ids = (rs: Run[]) => rs.map((r) => r.run_id);
    expect(ids(byCampaign)).toEqual(ids([runs[3], runs[1], runs[0]]));
    expect(ids(byTrace)).toEqual(ids([runs[3], runs[2], runs[0]]));
    expect(ids(byStatus)).toEqual(ids([runs[3], runs[2], runs[1]]));
    expect(ids(byAll)).toEqual(ids([runs[3]]));
  });

  it('moves a run only from one of the given statuses, and answers the run as changed', async () => {
    // Prepare
    const repo = new DynamoRunsRepo();
    const run = makeRun();
    await repo.create(run);
    // Act
    const started = await repo.transition(run.project_id, run.run_id, ['queued'], { status: 'running', started_at: AT, attempt_total: 3 });
    const again = await repo.transition(run.project_id, run.run_id, ['queued'], {
      status: 'running',
      started_at: '2027-01-01T00:00:00.000000+00:00',
    });
    // Assess
    expect(started).toEqual({ ...run, status: 'running', started_at: AT, attempt_total: 3 });
    expect(again).toBeNull();
    expect(await repo.get(run.project_id, run.run_id)).toEqual(started);
  });

  it('accepts any status of the list it is given', async () => {
    // Prepare
    const repo = new DynamoRunsRepo();
    const run = makeRun({ status: 'running' });
    await repo.create(run);
    // Act
    const ended = await repo.transition(run.project_id, run.run_id, ['queued', 'running'], { status: 'failed', error: 'abandoned' });
    // Assess
    expect(ended).toMatchObject({ status: 'failed', error: 'abandoned' });
  });

  it('answers null to a transition of a run that does not exist, and creates nothing', async () => {
    // Prepare
    const repo = new DynamoRunsRepo();
    const pid = randomUUID();
    const rid = randomUUID();
    // Act
    const moved = await repo.transition(pid, rid, ['queued'], { status: 'running' });
    // Assess
    expect(moved).toBeNull();
    expect(await repo.get(pid, rid)).toBeNull();
  });

  it('updates the given fields whatever the status, leaving undefined ones alone', async () => {
    // Prepare
    const repo = new DynamoRunsRepo();
    const run = makeRun({ status: 'completed' });
    await repo.create(run);
    const summary = { ...EMPTY_SUMMARY, attempt_count: 2, passed_count: 2, pass_rate: 1 };
    // Act
    await repo.update(run.project_id, run.run_id, { summary, trace_name: 'renamed', error: undefined });
    // Assess
    expect(await repo.get(run.project_id, run.run_id)).toEqual({ ...run, summary, trace_name: 'renamed' });
  });

  it('refuses to update a run that does not exist, and creates nothing', async () => {
    // Prepare
    const repo = new DynamoRunsRepo();
    const pid = randomUUID();
    const rid = randomUUID();
    // Act
    const res = repo.update(pid, rid, { trace_name: 'renamed' });
    // Assess
    await expect(res).rejects.toThrow(`run ${rid} does not exist`);
    expect(await repo.get(pid, rid)).toBeNull();
  });
});

describe('DynamoRunsRepo attempts', () => {
  it('stores an attempt once: a second put of the same attempt is refused and the first stays', async () => {
    // Prepare
    const repo = new DynamoRunsRepo();
    const pid = randomUUID();
    const a = makeAttempt(randomUUID(), 1);
    // Act
    const first = await repo.putAttempt(pid, a);
    const second = await repo.putAttempt(pid, { ...a, status: 'failed', output: 'other' });
    // Assess
    expect([first, second]).toEqual([true, false]);
    expect(await repo.listAttempts(pid, a.run_id)).toEqual([a]);
  });

  it('lists attempts by number with their events and transcripts', async () => {
    // Prepare
    const repo = new DynamoRunsRepo();
    const pid = randomUUID();
    const rid = randomUUID();
    const attempts = [1, 2, 3].map((n) =>
      makeAttempt(rid, n, {
        policy_events: [policyEvent(rid, n, 1)],
        security_events: [securityEvent(rid, n, 1)],
        mutation_id: n === 1 ? null : `m${n}`,
      }),
    );
    for (const a of [attempts[2], attempts[0], attempts[1]]) await repo.putAttempt(pid, a);
    // Act
    const listed = await repo.listAttempts(pid, rid);
    // Assess
    expect(listed).toEqual(attempts);
  });

  it('lists attempts without decoding transcripts when asked (scores and events kept)', async () => {
    // Prepare
    const repo = new DynamoRunsRepo();
    const pid = randomUUID();
    const rid = randomUUID();
    const a = makeAttempt(rid, 1, { policy_events: [policyEvent(rid, 1, 1)] });
    await repo.putAttempt(pid, a);
    // Act
    const listed = await repo.listAttempts(pid, rid, { transcripts: false });
    // Assess
    expect(listed).toEqual([{ ...a, transcript: [] }]);
  });

  it('answers no attempts for a run of another project', async () => {
    // Prepare
    const repo = new DynamoRunsRepo();
    const a = makeAttempt(randomUUID(), 1);
    await repo.putAttempt(randomUUID(), a);
    // Act
    const listed = await repo.listAttempts(randomUUID(), a.run_id);
    // Assess
    expect(listed).toEqual([]);
  });

  it('keeps a transcript whose compressed size is within the bound', async () => {
    // Prepare: about 150 KB of random text, compressed about 110 KB.
    const repo = new DynamoRunsRepo();
    const pid = randomUUID();
    const a = makeAttempt(randomUUID(), 1, { transcript: [{ type: 'message', role: 'user', content: randomBytes(110 * 1024).toString('base64') }] });
    // Act
    const stored = await repo.putAttempt(pid, a);
    // Assess
    expect(stored).toBe(true);
    expect(await repo.listAttempts(pid, a.run_id)).toEqual([a]);
  });

  it('drops a transcript above the size bound and keeps the score, output and events', async () => {
    // Prepare: about 530 KB of random text, compressed about 400 KB, above the 350 KB bound.
    const repo = new DynamoRunsRepo();
    const pid = randomUUID();
    const rid = randomUUID();
    const a = makeAttempt(rid, 1, {
      transcript: [{ type: 'message', role: 'user', content: randomBytes(400 * 1024).toString('base64') }],
      policy_events: [policyEvent(rid, 1, 1)],
      security_events: [securityEvent(rid, 1, 1)],
    });
    // Act
    const stored = await repo.putAttempt(pid, a);
    // Assess
    expect(stored).toBe(true);
    expect(await repo.listAttempts(pid, rid)).toEqual([{ ...a, transcript: [], transcript_dropped: true }]);
  });

  // An agent's output may be up to 1 MiB: stored beside compressed transcript and events it must still fit one item.
  it("stores an attempt with a 250 KB output: the item stays within DynamoDB's 400 KB", async () => {
    // Prepare
    const repo = new DynamoRunsRepo();
    const pid = randomUUID();
    const output = randomBytes(190 * 1024).toString('base64');
    const a = makeAttempt(randomUUID(), 1, { output, transcript: [{ type: 'message', role: 'assistant', content: output }] });
    // Act
    const stored = await repo.putAttempt(pid, a);
    // Assess
    expect(stored).toBe(true);
    expect((await repo.listAttempts(pid, a.run_id, { transcripts: false }))[0]).toMatchObject({ attempt: 1, status: 'passed', output });
  });
});

describe('DynamoRunsRepo events', () => {
  it('pages through policy events ordered by attempt, then sequence', async () => {
    // Prepare: attempts stored out of order, each with its events out of order.
    const repo = new DynamoRunsRepo();
    const pid = randomUUID();
    const rid = randomUUID();
    const events = [[policyEvent(rid, 1, 1), policyEvent(rid, 1, 2), policyEvent(rid, 1, 3)], [], [policyEvent(rid, 3, 1), policyEvent(rid, 3, 2)]];
    for (const n of [3, 1, 2]) await repo.putAttempt(pid, makeAttempt(rid, n, { policy_events: [...events[n - 1]].reverse() }));
    // Act
    const pages = [];
    let after: Record<string, unknown> | undefined;
    do {
      const page = await repo.listPolicyEvents(pid, rid, { limit: 2, after });
      pages.push(page.items);
      after = page.last;
    } while (after);
    // Assess
    expect(pages).toEqual([[events[0][0], events[0][1]], [events[0][2], events[2][0]], [events[2][1]]]);
  });

  it('answers no policy events and no next page for a run without attempts', async () => {
    // Act
    const page = await new DynamoRunsRepo().listPolicyEvents(randomUUID(), randomUUID(), { limit: 10 });
    // Assess
    expect(page).toEqual({ items: [], last: undefined });
  });

  it('lists security events ordered by attempt, then sequence', async () => {
    // Prepare
    const repo = new DynamoRunsRepo();
    const pid = randomUUID();
    const rid = randomUUID();
    const [a1s1, a1s2, a2s1] = [securityEvent(rid, 1, 1), securityEvent(rid, 1, 2), securityEvent(rid, 2, 1)];
    await repo.putAttempt(pid, makeAttempt(rid, 2, { security_events: [a2s1] }));
    await repo.putAttempt(pid, makeAttempt(rid, 1, { security_events: [a1s2, a1s1] }));
    // Act
    const listed = await repo.listSecurityEvents(pid, rid);
    // Assess
    expect(listed).toEqual([a1s1, a1s2, a2s1]);
  });
});

describe('DynamoRunsRepo run-packs', () => {
  const makePack = (overrides: Partial<RunPack> = {}): RunPack => ({
    pack_id: randomUUID(),
    project_id: randomUUID(),
    campaign_id: randomUUID(),
    run_ids: [randomUUID(), randomUUID()],
    trace_ids: [randomUUID(), randomUUID()],
    trace_count: 2,
    created_at: AT,
    ...overrides,
  });

  it('stores a run-pack and reads it back; another project does not see it', async () => {
    // Prepare
    const repo = new DynamoRunsRepo();
    const pack = makePack();
    // Act
    await repo.putPack(pack);
    // Assess
    expect(await repo.getPack(pack.project_id, pack.pack_id)).toEqual(pack);
    expect(await repo.getPack(randomUUID(), pack.pack_id)).toBeNull();
  });

  it('refuses a second run-pack under the same id and keeps the first', async () => {
    // Prepare
    const repo = new DynamoRunsRepo();
    const pack = makePack();
    await repo.putPack(pack);
    // Act
    const again = repo.putPack({ ...pack, created_at: '2026-11-21T10:00:09.000000+00:00', trace_count: 5 });
    // Assess
    await expect(again).rejects.toThrow(`run-pack ${pack.pack_id} already exists`);
    expect(await repo.getPack(pack.project_id, pack.pack_id)).toEqual(pack);
  });
});
