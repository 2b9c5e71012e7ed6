import { routes, workerHandlers } from '../../../lib/routes';
import { preloadHandlers } from '../../../functions/local/server';

describe('local service: handler preloading', () => {
  it('loads every route, worker and event handler module, each exporting a handler', async () => {
    // Prepare
    const expected = new Set([...routes.map((r) => `functions/http/${r.handler}`), ...Object.values(workerHandlers)]).size;
    // Act
    const loaded = await preloadHandlers();
    // Assess
    expect(loaded).toBe(expected);
    expect(expected).toBeGreaterThan(30);
  });
});
