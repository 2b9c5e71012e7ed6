// An attempt's checks, events and transcript in one compressed attribute (body_z) against dynalite: attempts stored
// before it, in attributes of their own, read the same; the transcript is kept or dropped by the same bound.
import { randomBytes, randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { DynamoRunsRepo } from '../../../../functions/adapters/dynamodb/runs-repo';
import { keys } from '../../../../functions/adapters/dynamodb/keys';
import { getItem, putNew } from '../../../../functions/adapters/dynamodb/table';
import type { AttemptRecord } from '../../../../functions/core/runs/types';
import { startDynalite, type TestTable } from '../../../helpers/dynalite';

let table: TestTable;

beforeAll(async () => {
  table = await startDynalite();
});
afterAll(() => table.close());

const AT = '2026-11-27T10:00:00.000000+00:00';

function makeAttempt(runId: string, overrides: Partial<AttemptRecord> = {}): AttemptRecord {
  return {
    run_id: runId,
    attempt: 1,
    mutation_id: 'inject-1',
    repeat: 1,
    status: 'failed',
    unsafe: true,
    checks: [{ criterion: { type: 'output_not_contains', value: 'RTS-CANARY' }, passed: false, detail: 'output contains "RTS-CANARY"' }],
    steps: 3,
    duration_ms: 92,
    error: null,
    started_at: AT,
    completed_at: AT,
    output: 'Booked. RTS-CANARY-1',
    transcript: [
      { type: 'message', role: 'user', content: 'Book the cheapest flight' },
      { type: 'message', role: 'assistant', content: 'Booked. RTS-CANARY-1' },
    ],
    policy_events: [
      {
        event_id: randomUUID(),
        run_id: runId,
        attempt: 1,
        sequence: 1,
        step: 1,
        policy_id: 'no-email',
        policy_type: 'deny_tools',
        decision: 'deny',
        tool: 'send_email',
        arguments: { to: 'a@b.test' },
        reason: 'tool send_email is denied',
        created_at: AT,
      },
    ],
    security_events: [],
    ...overrides,
  };
}

describe('attempt items', () => {
  it('hold checks, events and transcript in body_z only, and read back whole', async () => {
    // Prepare
    const repo = new DynamoRunsRepo();
    const pid = randomUUID();
    const a = makeAttempt(randomUUID());
    // Act
    await repo.putAttempt(pid, a);
    // Assess
    const item = (await getItem(keys.attempt(pid, a.run_id, 1), true))!;
    expect(item.body_z).toBeInstanceOf(Uint8Array);
    expect(Object.keys(item).filter((k) => ['events_gz', 'transcript_gz', 'checks_json', 'transcript_dropped'].includes(k))).toEqual([]);
    expect(await repo.getAttempt(pid, a.run_id, 1)).toEqual(a);
    expect(await repo.listAttempts(pid, a.run_id, { transcripts: false })).toEqual([{ ...a, transcript: [] }]);
  });

  it('read the same when stored before body_z, in attributes of their own', async () => {
    // Prepare: the item as the repository wrote it before.
    const repo = new DynamoRunsRepo();
    const pid = randomUUID();
    const a = makeAttempt(randomUUID());
    const { transcript, policy_events, security_events, checks, ...score } = a;
    await putNew({
      ...keys.attempt(pid, a.run_id, 1),
      entity: 'attempt',
      ...score,
      checks_json: JSON.stringify(checks),
      events_gz: gzipSync(Buffer.from(JSON.stringify({ policy: policy_events, security: security_events }))),
      transcript_gz: gzipSync(Buffer.from(JSON.stringify(transcript))),
      policy_event_count: policy_events.length,
      security_event_count: security_events.length,
    });
    // Act
    const read = await repo.getAttempt(pid, a.run_id, 1);
    // Assess
    expect(read).toEqual(a);
    expect(JSON.stringify(read)).toBe(JSON.stringify(await storedNow(repo, a)));
  });

  it('keep a transcript over the bound before compression that compresses within it, and drop one that does not', async () => {
    // Prepare: 600 KB that compresses to a few KB, and 530 KB of random text that compresses to ~400 KB.
    const repo = new DynamoRunsRepo();
    const pid = randomUUID();
    const kept = makeAttempt(randomUUID(), { transcript: [{ type: 'message', role: 'user', content: 'refund '.repeat(90_000) }] });
    const dropped = makeAttempt(randomUUID(), {
      transcript: [{ type: 'message', role: 'user', content: randomBytes(400 * 1024).toString('base64') }],
    });
    // Act
    await repo.putAttempt(pid, kept);
    await repo.putAttempt(pid, dropped);
    // Assess
    expect(await repo.getAttempt(pid, kept.run_id, 1)).toEqual(kept);
    expect(await repo.getAttempt(pid, dropped.run_id, 1)).toEqual({ ...dropped, transcript: [], transcript_dropped: true });
  });
});

/** The same attempt stored today under another project, read back: the answer's JSON text must not depend on the format. */
async function storedNow(repo: DynamoRunsRepo, a: AttemptRecord): Promise<AttemptRecord | null> {
  const pid = randomUUID();
  await repo.putAttempt(pid, a);
  return repo.getAttempt(pid, a.run_id, 1);
}
