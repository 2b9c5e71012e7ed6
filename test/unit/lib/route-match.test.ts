// findRoute (the table's patterns split once, rows by length) answers exactly what matching every row with matchPath
// answers: the row of the method, else the methods of the rows whose path matches.
import { findRoute, matchPath } from '../../../lib/route-match';
import { routes } from '../../../lib/routes';

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

/** The lookup by definition: every row in table order, matched with matchPath. */
function naiveFindRoute(method: string, path: string) {
  const allowed: string[] = [];
  for (const route of routes) {
    const pathParameters = matchPath(route.path, path);
    if (!pathParameters) continue;
    if (route.method === method) return { match: { route, pathParameters }, allowed: [] };
    allowed.push(route.method);
  }
  return { allowed };
}

describe('findRoute', () => {
  it.each(METHODS)('answers %s requests as matching every row with matchPath does, on every route shape', (method) => {
    for (const path of paths()) expect([path, findRoute(method, path)]).toEqual([path, naiveFindRoute(method, path)]);
  });
});
