// A scripted fetch for the SDK's unit tests: records every request, answers from a list (the last answer repeats).
import type { FetchInit, FetchLike } from '../../../packages/sdk/src/index';

export type Reply = { status: number; body?: unknown; headers?: Record<string, string> } | Error;

export interface FakeFetch {
  fetch: FetchLike;
  calls: { url: URL; init: FetchInit }[];
}

export function fakeFetch(...replies: Reply[]): FakeFetch {
  const calls: FakeFetch['calls'] = [];
  const queue = replies.length ? [...replies] : [{ status: 200, body: {} }];
  const fetch: FetchLike = async (url, init) => {
    calls.push({ url: new URL(url), init });
    const reply = queue.length > 1 ? queue.shift()! : queue[0];
    if (reply instanceof Error) throw reply;
    const headers = Object.fromEntries(Object.entries(reply.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
    return {
      status: reply.status,
      headers: { get: (name: string) => headers[name.toLowerCase()] ?? null },
      text: async () => (reply.body === undefined ? '' : typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body)),
    };
  };
  return { fetch, calls };
}

/** A fetch failure as Node's fetch reports a refused connection. */
export function refused(): Error {
  const cause = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED', address: '127.0.0.1', port: 9 });
  return Object.assign(new TypeError('fetch failed'), { cause });
}
