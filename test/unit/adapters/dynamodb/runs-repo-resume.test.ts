// DynamoRunsRepo against dynalite: the published mark of a run's completion, and the runs a restarted local service
// resumes (queued, running, or ended without their completion published).
import { randomUUID } from 'node:crypto';
import { DynamoRunsRepo } from '../../../../functions/adapters/dynamodb/runs-repo';
import type { Run } from '../../../../functions/core/runs/types';
import { startDynalite, type TestTable } from '../../../helpers/dynalite';
import { makeAttempt, makeRun } from '../../../helpers/run-records';

let table: TestTable;

beforeAll(async () => {
  table = await startDynalite();
});
afterAll(() => table.close());

describe('DynamoRunsRepo published mark', () => {
  it('is unset on a new run, set by markPublished (twice is fine) and leaves the run item as it was', async () => {
    // Prepare
    const repo = new DynamoRunsRepo();
    const run = makeRun({ status: 'completed' });
    await repo.create(run);
    await repo.putAttempt(run.project_id, makeAttempt(run.run_id, 1));
    const before = await repo.isPublished(run.project_id, run.run_id);
    // Act
    await repo.markPublished(run.project_id, run.run_id);
    await repo.markPublished(run.project_id, run.run_id);
    // Assess
    expect(before).toBe(false);
    expect(await repo.isPublished(run.project_id, run.run_id)).toBe(true);
    expect(await repo.get(run.project_id, run.run_id)).toEqual(run);
    expect((await repo.listAttempts(run.project_id, run.run_id)).map((a) => a.attempt)).toEqual([1]);
    expect(await repo.isPublished(randomUUID(), run.run_id)).toBe(false);
  });

  it('reads the flag that runs stored by earlier versions carry on META', async () => {
    // Prepare
    const repo = new DynamoRunsRepo();
    const published = { ...makeRun({ status: 'completed' }), completion_published: true } as unknown as Run;
    const unpublished = { ...makeRun({ status: 'completed' }), completion_published: false } as unknown as Run;
    await repo.createMany([published, unpublished]);
    // Act
    const flags = [
      await repo.isPublished(published.project_id, published.run_id),
      await repo.isPublished(unpublished.project_id, unpublished.run_id),
    ];
    // Assess
    expect(flags).toEqual([true, false]);
  });
});

describe('DynamoRunsRepo.listUnfinished', () => {
  it('finds queued and running runs of every project, and terminal runs whose completion is not published', async () => {
    // Prepare
    const repo = new DynamoRunsRepo();
    const [p1, p2] = [randomUUID(), randomUUID()];
    const queued = makeRun({ project_id: p1, status: 'queued' });
    const running = makeRun({ project_id: p2, status: 'running' });
    const completedUnpublished = makeRun({ project_id: p1, status: 'completed' });
    // Runs stored by earlier versions carry the flag on META: false, absent or true.
    const failedUnmarked = { ...makeRun({ project_id: p2, status: 'failed' }), completion_published: false } as unknown as Run;
    const completedPublished = makeRun({ project_id: p1, status: 'completed' });
    const failedPublished = { ...makeRun({ project_id: p2, status: 'failed' }), completion_published: true } as unknown as Run;
    // A mark without its run (never written so, but the scan must not list it): nothing to resume.
    const stray = makeRun({ project_id: p2 });
    await repo.createMany([queued, running, completedUnpublished, failedUnmarked, completedPublished, failedPublished]);
    await repo.putAttempt(p1, makeAttempt(completedPublished.run_id, 1));
    await repo.markPublished(p1, completedPublished.run_id);
    await repo.markPublished(p2, stray.run_id);
    // A mark of another project's run of the same id does not count.
    await repo.markPublished(p2, completedUnpublished.run_id);
    // Act
    const unfinished = await repo.listUnfinished();
    // Assess: other tests' runs share the table; only this test's are compared.
    const mine = new Set([queued, running, completedUnpublished, failedUnmarked, completedPublished, failedPublished, stray].map((r) => r.run_id));
    const found = unfinished.filter((m) => mine.has(m.run_id));
    const expected = [queued, running, completedUnpublished, failedUnmarked].map((r) => ({ project_id: r.project_id, run_id: r.run_id }));
    const byId = (a: { run_id: string }, b: { run_id: string }) => a.run_id.localeCompare(b.run_id);
    expect(found.sort(byId)).toEqual(expected.sort(byId));
  });
});
