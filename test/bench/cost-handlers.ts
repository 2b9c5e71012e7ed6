// The cost bench's view of the handlers: every handler module loaded through a generated wrapper that times each
// invocation and names the function (as the template describes it) whose store calls it makes; requests by route.
import { AsyncLocalStorage } from 'node:async_hooks';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { routes, workerHandlers } from '../../lib/routes';
import { resolveHandlersWith } from '../../functions/local/gateway';
import type { ReplayMessage } from '../../functions/core/ports';
import { attributeCallsTo } from './aws-counter';

const ROOT = join(__dirname, '..', '..');
const TIMED = Symbol.for('rts.bench.cost.timed');

export interface Invocation {
  modulePath: string;
  startedAt: number;
  ms: number;
  /** Replay worker only: payload bytes of each record as the SQS adapter sends it. */
  recordBytes?: number[];
}

/** The SQS message body the cloud adapter sends for a replay message (functions/adapters/sqs/sqs-queue.ts). */
export const sqsBodyBytes = (m: ReplayMessage) => Buffer.byteLength(JSON.stringify({ project_id: m.project_id, run_id: m.run_id }));

/**
 * Loads every handler module through a generated wrapper that times each invocation (the handler's own time, as Lambda
 * bills it) while `recording` is on. Returns the recorder and an undo.
 */
export function timeHandlers(): { invocations: Invocation[]; setRecording: (on: boolean) => void; undo: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'rts-cost-handlers-'));
  const invocations: Invocation[] = [];
  let recording = false;
  // Store calls are attributed to the function whose handler makes them.
  const running = new AsyncLocalStorage<string>();
  attributeCallsTo(() => running.getStore());
  (globalThis as Record<symbol, unknown>)[TIMED] = (modulePath: string, real: { handler: (...args: unknown[]) => Promise<unknown> }) =>
    async function timed(...args: unknown[]) {
      const startedAt = performance.now();
      const records = modulePath === workerHandlers.replayWorker ? (args[0] as { Records?: { body: string }[] }).Records : undefined;
      try {
        return await running.run(functionOf(modulePath), () => real.handler(...args));
      } finally {
        if (recording) {
          invocations.push({
            modulePath,
            startedAt,
            ms: performance.now() - startedAt,
            recordBytes: records?.map((r) => sqsBodyBytes(JSON.parse(r.body) as ReplayMessage)),
          });
        }
      }
    };
  resolveHandlersWith((modulePath) => {
    const file = join(dir, `${modulePath.replace(/[^A-Za-z0-9_-]/g, '_')}.js`);
    writeFileSync(
      file,
      `'use strict';\nconst real = require(${JSON.stringify(join(ROOT, modulePath))});\n` +
        `module.exports = { handler: globalThis[Symbol.for('rts.bench.cost.timed')](${JSON.stringify(modulePath)}, real) };\n`,
    );
    return file;
  });
  return {
    invocations,
    setRecording: (on) => {
      recording = on;
    },
    undo: () => {
      resolveHandlersWith();
      attributeCallsTo(() => undefined);
      delete (globalThis as Record<symbol, unknown>)[TIMED];
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The function description (as in the template) of a handler module. */
export function functionOf(modulePath: string): string {
  const fixed: Record<string, string> = {
    [workerHandlers.authorizer]: 'rts authorizer',
    [workerHandlers.replayWorker]: 'rts replay worker',
    [workerHandlers.deadLetter]: 'rts replay dead-letter consumer',
    [workerHandlers.webhookDelivery]: 'rts webhook delivery',
    [workerHandlers.dashboard]: 'rts GET /dashboard',
  };
  if (fixed[modulePath]) return fixed[modulePath];
  const route = routes.find((r) => `functions/http/${r.handler}` === modulePath);
  if (!route) throw new Error(`no function for handler module ${modulePath}`);
  return `rts ${route.method} ${route.path}`;
}

/** `METHOD /route` of a request path, ids replaced by the route's placeholders. */
export function routeOf(method: string, path: string): string {
  const parts = path.split('?')[0].split('/');
  const route = routes.find((r) => {
    const segs = r.path.split('/');
    return r.method === method && segs.length === parts.length && segs.every((s, i) => s.startsWith('{') || s === parts[i]);
  });
  return `${method} ${route?.path ?? path}`;
}
