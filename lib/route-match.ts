// The route lookup over the route table (lib/routes.ts): which row a request's method and path name, with its path
// parameters; used by the local gateway, the OpenAPI tests and the SDK's tests alike.
import { routes, type RouteRow } from './routes';

/** A request's row and the values of its path parameters. */
export interface RouteMatch {
  route: RouteRow;
  pathParameters: Record<string, string>;
}

/** Matches a concrete path against a route pattern; returns its parameters or null. */
export function matchPath(pattern: string, path: string): Record<string, string> | null {
  const p = pattern.split('/');
  const a = path.split('/');
  if (p.length !== a.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < p.length; i++) {
    const seg = p[i];
    if (seg.startsWith('{') && seg.endsWith('}')) {
      if (a[i] === '') return null;
      try {
        params[seg.slice(1, -1)] = decodeURIComponent(a[i]);
      } catch {
        return null;
      }
    } else if (seg !== a[i]) return null;
  }
  return params;
}

/**
 * Finds the route for a request; `allowed` lists the methods of a path that exists with another method. The table's
 * patterns are split once: rows by segment count, each with its segments (null where a parameter sits), so a request's
 * path is split once and only the rows of its length are compared. Parameters are read as matchPath reads them
 * (non-empty, URI-decoded; a row whose decoding fails does not match); a test holds findRoute to matching every row
 * with matchPath.
 */
let patterns: Map<number, { route: RouteRow; segments: (string | null)[]; names: (string | null)[] }[]> | undefined;

export function findRoute(method: string, path: string): { match?: RouteMatch; allowed: string[] } {
  if (!patterns) {
    patterns = new Map();
    for (const route of routes) {
      const split = route.path.split('/');
      const param = (seg: string) => seg.startsWith('{') && seg.endsWith('}');
      const row = {
        route,
        segments: split.map((seg) => (param(seg) ? null : seg)),
        names: split.map((seg) => (param(seg) ? seg.slice(1, -1) : null)),
      };
      const list = patterns.get(split.length) ?? [];
      list.push(row);
      patterns.set(split.length, list);
    }
  }
  const parts = path.split('/');
  const allowed: string[] = [];
  rows: for (const { route, segments, names } of patterns.get(parts.length) ?? []) {
    for (let i = 0; i < segments.length; i++) if (segments[i] !== null && segments[i] !== parts[i]) continue rows;
    const params: Record<string, string> = {};
    for (let i = 0; i < names.length; i++) {
      const name = names[i];
      if (name === null) continue;
      if (parts[i] === '') continue rows;
      try {
        params[name] = decodeURIComponent(parts[i]);
      } catch {
        continue rows;
      }
    }
    if (route.method === method) return { match: { route, pathParameters: params }, allowed: [] };
    allowed.push(route.method);
  }
  return { allowed };
}
