// The replay workers' metrics, counted where each fact becomes true: the executor's own conditional writes and events,
// seen through its ports, so the core stays free of any metrics code.
import type { Deps, EventPublisher, RunsRepo } from '../core/ports';
import { countMetric } from '../wiring/metrics';

const DECISION_EVENT = /^ci\.decision\.(pass|fail)$/;

/** `target` with some methods replaced; every other member is the target's own, bound to it (private state kept). */
function override<T extends object>(target: T, methods: Partial<T>): T {
  return new Proxy(target, {
    get(t, key) {
      if (Object.hasOwn(methods, key)) return methods[key as keyof T];
      const value = Reflect.get(t, key, t);
      return typeof value === 'function' ? value.bind(t) : value;
    },
  });
}

/**
 * The deps to hand the executor (and through it the CI hook), counting:
 * - Attempts by status, when this delivery's conditional put stores the attempt (a redelivery that finds it stored
 *   does not count it again);
 * - Runs by status, when this delivery's conditional transition makes the run completed or failed (once per run);
 * - CiDecisions by decision, when a ci.decision event is published: once per batch or single CI run, or again after a
 *   failure between publishing and storing the published mark (the event is re-sent with the same bus id then).
 */
export function meteredDeps(deps: Deps): Deps {
  const { runs, events } = deps;
  return {
    ...deps,
    runs: override<RunsRepo>(runs, {
      putAttempt: async (projectId, attempt) => {
        const stored = await runs.putAttempt(projectId, attempt);
        if (stored) countMetric('Attempts', attempt.status);
        return stored;
      },
      transition: async (projectId, runId, from, patch) => {
        const run = await runs.transition(projectId, runId, from, patch);
        if (run && (patch.status === 'completed' || patch.status === 'failed')) countMetric('Runs', patch.status);
        return run;
      },
    }),
    events: override<EventPublisher>(events, {
      publish: async (list) => {
        await events.publish(list);
        for (const e of list) {
          const decision = DECISION_EVENT.exec(e.envelope.event_type)?.[1];
          if (decision) countMetric('CiDecisions', decision);
        }
      },
    }),
  };
}
