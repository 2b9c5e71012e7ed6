// GET /v1/runs/{id}'s view: a terminal run's scoring context is built once per container, then served from one read.
import { runView } from '../../../../functions/core/runs/service';
import { getRunDetail } from '../../../../functions/core/runs/views';
import type { Deps } from '../../../../functions/core/ports';
import { PROJECT_ID, RUN_ID, loadTrace, makeCampaign, makeWorld, runOne, scriptedAgent } from '../../../helpers/replay-fakes';

async function world(status: 'running' | 'completed') {
  const campaign = makeCampaign({ target: { type: 'recorded' } });
  const trace = loadTrace('refund-trace');
  const { deps } = makeWorld(campaign, trace, { status, attempt_total: 1 });
  const attempt = await runOne(trace, campaign, scriptedAgent([], 'refund issued'));
  await deps.runs.putAttempt(PROJECT_ID, attempt);
  const reads = {
    runs: jest.spyOn(deps.runs, 'get'),
    attempts: jest.spyOn(deps.runs, 'listAttempts'),
    campaigns: jest.spyOn(deps.campaigns, 'get'),
  };
  return { deps: deps as unknown as Deps, reads };
}

describe('getRunDetail', () => {
  it('reads only the run on a repeated GET of a terminal run, and answers the same', async () => {
    // Prepare
    const { deps, reads } = await world('completed');
    // Act
    const first = await getRunDetail(deps, PROJECT_ID, RUN_ID);
    const second = await getRunDetail(deps, PROJECT_ID, RUN_ID);
    // Assess
    expect(second).toEqual(first);
    expect(first.scoring.attempts).toHaveLength(1);
    expect(reads.runs).toHaveBeenCalledTimes(2);
    expect(reads.campaigns).toHaveBeenCalledTimes(1);
    expect(reads.attempts).toHaveBeenCalledTimes(1);
  });

  it("answers runView's fields in its order with source moved last, then attempt_total and scoring", async () => {
    // Prepare
    const { deps } = await world('completed');
    // Act
    const detail = await getRunDetail(deps, PROJECT_ID, RUN_ID);
    // Assess
    const run = await deps.runs.get(PROJECT_ID, RUN_ID);
    const viewKeys = Object.keys(runView(run!)).filter((k) => k !== 'source');
    expect(Object.keys(detail)).toEqual([...viewKeys, 'source', 'attempt_total', 'scoring']);
    expect(detail).toMatchObject({ source: run!.source, attempt_total: 1, status: 'completed' });
  });

  it('reads the campaign and the attempts on every GET of a run still running', async () => {
    // Prepare
    const { deps, reads } = await world('running');
    // Act
    await getRunDetail(deps, PROJECT_ID, RUN_ID);
    await getRunDetail(deps, PROJECT_ID, RUN_ID);
    // Assess
    expect(reads.campaigns).toHaveBeenCalledTimes(2);
    expect(reads.attempts).toHaveBeenCalledTimes(2);
  });

  it('keeps what it learnt per set of adapters: other stores are read afresh', async () => {
    // Prepare
    const a = await world('completed');
    const b = await world('completed');
    // Act
    await getRunDetail(a.deps, PROJECT_ID, RUN_ID);
    await getRunDetail(b.deps, PROJECT_ID, RUN_ID);
    // Assess
    expect(b.reads.campaigns).toHaveBeenCalledTimes(1);
    expect(b.reads.attempts).toHaveBeenCalledTimes(1);
  });

  it('answers 404 for a run it does not find, even one it served before', async () => {
    // Prepare
    const { deps } = await world('completed');
    await getRunDetail(deps, PROJECT_ID, RUN_ID);
    (deps.runs as unknown as { runs: Map<string, unknown> }).runs.clear();
    // Act, Assess
    await expect(getRunDetail(deps, PROJECT_ID, RUN_ID)).rejects.toMatchObject({ status: 404 });
  });
});
