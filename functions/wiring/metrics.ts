// Service metrics in CloudWatch's embedded metric format (Powertools Metrics): counted during an invocation and written
// as log lines when it ends (flushMetrics), from which CloudWatch extracts them; no PutMetricData call, no extra latency.
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { optionalEnv } from '../adapters/env';
import { logger, serviceName } from './logger';

/** The CloudWatch namespace unless POWERTOOLS_METRICS_NAMESPACE says otherwise. */
export const METRICS_NAMESPACE = 'rts';

/** Each metric (a count) and the dimension that splits it, beside `service`: the domain field it counts by. */
export const METRIC_DIMENSIONS = {
  /** Attempts stored, by status: passed, failed, error. */
  Attempts: 'status',
  /** Runs made terminal, by status: completed, failed. */
  Runs: 'status',
  /** CI decisions published (batches and single CI runs), by decision: pass, fail. */
  CiDecisions: 'decision',
  /** Webhook deliveries that ended, by outcome: succeeded, failed. */
  WebhookDeliveries: 'outcome',
} as const;

export type MetricName = keyof typeof METRIC_DIMENSIONS;

interface Count {
  name: MetricName;
  value: string;
  n: number;
}

const counts = new Map<string, Count>();
let emitter: Metrics | undefined;

/** Adds `n` to a metric for one dimension value; written by the next flushMetrics(). */
export function countMetric(name: MetricName, value: string, n = 1): void {
  const key = `${name}\u0000${value}`;
  const count = counts.get(key);
  if (count) count.n += n;
  else counts.set(key, { name, value, n });
}

/**
 * Writes what was counted since the last flush, one EMF line per dimension value, then forgets it; nothing
 * when nothing was counted or POWERTOOLS_METRICS_DISABLED=true (the local service, tests). Never throws: a metrics
 * failure must not fail the invocation. Call it once per invocation, when the handler ends (in a finally).
 */
export function flushMetrics(): void {
  if (counts.size === 0) return;
  const pending = [...counts.values()];
  counts.clear();
  try {
    // Built at first flush, so the environment is read then, not at import.
    const m = (emitter ??= new Metrics({ namespace: optionalEnv('POWERTOOLS_METRICS_NAMESPACE', METRICS_NAMESPACE), serviceName: serviceName() }));
    // One EMF line per dimension value (Attempts and Runs with status=failed share theirs); disabled, nothing is written.
    const lines = new Map<string, Count[]>();
    for (const c of pending) {
      const key = `${METRIC_DIMENSIONS[c.name]}=${c.value}`;
      lines.set(key, [...(lines.get(key) ?? []), c]);
    }
    for (const line of lines.values()) {
      m.addDimension(METRIC_DIMENSIONS[line[0].name], line[0].value);
      for (const { name, n } of line) m.addMetric(name, MetricUnit.Count, n);
      m.publishStoredMetrics();
    }
  } catch (err) {
    logger.warn('metrics could not be written', { error: err as Error });
  }
}

/** Forgets counts and the emitter, so the next flush reads the environment again (tests). */
export function resetMetrics(): void {
  counts.clear();
  emitter = undefined;
}
