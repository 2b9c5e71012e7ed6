// The local gateway's route lookup (patterns split once) answers exactly what the route table's findRoute answers.
import { findRoute as gatewayFindRoute } from '../../../functions/local/gateway-request';
import { findRoute, routes } from '../../../lib/routes';

const ID = '1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f';
const METHODS = ['GET', 'POST', 'PATCH', 'DELETE', 'PUT', 'HEAD'];

/** Every route's path with its parameters filled in several ways, and shapes near them that must not match. */
function paths(): string[] {
  const out = new Set<string>(['/', '', '/v1', '/v1/', '/v2/runs', '/health/x', '//v1/traces', '/v1//runs', '/dashboard']);
  for (const r of routes) {
    for (const value of [ID, 'x', 'a%20b', 'a%2Fb', '%E0%A4%A', '']) {
      const path = r.path.replace(/\{[^}]+\}/g, value);
      out.add(path);
      out.add(`${path}/extra`);
      out.add(path.split('/').slice(0, -1).join('/'));
    }
  }
  return [...out];
}

describe('the local gateway route lookup', () => {
  it.each(METHODS)('answers %s requests as lib/routes findRoute does, on every route shape', (method) => {
    for (const path of paths()) expect([path, gatewayFindRoute(method, path)]).toEqual([path, findRoute(method, path)]);
  });
});
