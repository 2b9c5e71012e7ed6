// The route table's side-effect flags match what each handler wires: a handler that sends to the queue or publishes
// to the bus without its row saying so would deploy without the grant (and fail in production, not in a local test).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { routes } from '../../../lib/routes';

const ROOT = join(__dirname, '..', '..', '..');

/** Which adapters a handler wires through the side-effect imports of shared/with-queue and shared/with-bus. */
function wiring(handler: string): { queue: boolean; bus: boolean } {
  const source = readFileSync(join(ROOT, 'functions', 'http', `${handler}.ts`), 'utf8');
  return { queue: source.includes("import '../shared/with-queue';"), bus: source.includes("import '../shared/with-bus';") };
}

describe('route table flags', () => {
  it.each(routes.map((r) => [`${r.method} ${r.path}`, r] as const))(
    '%s: queue and bus flags match the adapters its handler wires',
    (_name, route) => {
      const wired = wiring(route.handler);

      expect({ queue: wired.queue, bus: wired.bus }).toEqual({ queue: route.queue === true, bus: route.bus === true });
    },
  );

  it('documents every route from its row alone: summary and success status', () => {
    for (const r of routes) {
      expect(r.summary.length).toBeGreaterThan(10);
      expect([200, 201, 202, 204]).toContain(r.status);
    }
  });
});
