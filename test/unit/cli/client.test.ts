// The CLI's API client (functions/cli/client.ts): the package's client with a single CI run's cells read as a batch
// scenario's.
import { CliClient } from '../../../functions/cli/client';
import { RtsClient } from '../../../packages/sdk/src/index';
import { fakeFetch } from '../sdk/fake-fetch';

const ID = '0b7d3f0e-4f7a-4c52-9b1e-0c7d2e9f4a11';

describe('CliClient.getCiRunReport', () => {
  it("completes a CI run's cells as a batch scenario's: flaky when its repeats disagree, no comparison", async () => {
    // Prepare
    const stat = { mutation_id: null, unsafe: 0, errors: 0, failures: [] };
    const cells = [
      { ...stat, passed: 3, total: 3 },
      { ...stat, mutation_id: 'm', passed: 1, total: 3 },
      { ...stat, mutation_id: 'n', passed: 0, total: 3 },
    ];
    const f = fakeFetch({ status: 200, body: { run_id: ID, cells } });
    const cli = new CliClient({ baseUrl: 'http://127.0.0.1:8787', apiKey: 'k', projectId: ID, fetch: f.fetch });

    // Act
    const run = await cli.getCiRunReport(ID);

    // Assess
    expect(run.cells!.map((c) => [c.mutation_id, c.flaky, c.comparison, c.before])).toEqual([
      [null, false, null, null],
      ['m', true, null, null],
      ['n', false, null, null],
    ]);
    expect(cli).toBeInstanceOf(RtsClient);
  });

  it('leaves the cells out when the service answers without them', async () => {
    // Prepare
    const f = fakeFetch({ status: 200, body: { run_id: ID } });
    const cli = new CliClient({ baseUrl: 'http://127.0.0.1:8787', apiKey: 'k', projectId: ID, fetch: f.fetch });

    // Act
    const run = await cli.getCiRunReport(ID);

    // Assess
    expect(run.cells).toBeUndefined();
  });
});
