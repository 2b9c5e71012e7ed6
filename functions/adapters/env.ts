// Environment access: read lazily at first use; a required variable that is missing throws then, not at import.

export function requireEnv(name: string): string {
  const value = process.env[name];
  if (value === undefined || value === '') throw new Error(`Missing required environment variable ${name}`);
  return value;
}

export function optionalEnv(name: string, fallback?: string): string | undefined {
  const value = process.env[name];
  return value === undefined || value === '' ? fallback : value;
}

export function boolEnv(name: string, fallback: boolean): boolean {
  const value = process.env[name];
  if (value === undefined || value === '') return fallback;
  return value === 'true' || value === '1';
}

/**
 * Private/loopback targets are allowed locally by default and refused in the cloud
 * (docs/connect-your-agent.md#outbound-addresses).
 */
export function allowPrivateTargets(): boolean {
  return boolEnv('RTS_ALLOW_PRIVATE_TARGETS', false);
}

/** RTS_WEBHOOK_SENDS_PER_MINUTE: deliveries a project may queue with test, resend and recover per minute; unset = the default. */
export function webhookSendsPerMinute(): number | undefined {
  const value = optionalEnv('RTS_WEBHOOK_SENDS_PER_MINUTE');
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`RTS_WEBHOOK_SENDS_PER_MINUTE must be a positive integer, got ${value}`);
  return n;
}

/**
 * RTS_PROJECT_WORKER_SHARE: replay worker invocations one project may hold at once in the cloud (the deployment sets
 * it below the workers' maximum concurrency); unset or 0 = no share (local mode, whose queue takes turns itself).
 */
export function projectWorkerShare(): number {
  const value = optionalEnv('RTS_PROJECT_WORKER_SHARE');
  if (value === undefined) return 0;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`RTS_PROJECT_WORKER_SHARE must be a non-negative integer, got ${value}`);
  return n;
}

/**
 * RTS_CLAIM_LEASE_MS: the lease of a fanned-out run's attempt claims (core/replay/fanout/claims.ts), from 1,000 to
 * 900,000 ms; unset = the executor's default (30 s). A worker that dies frees its attempts this long after.
 */
export function claimLeaseMs(): number | undefined {
  const value = optionalEnv('RTS_CLAIM_LEASE_MS');
  if (value === undefined || value === '') return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1000 || n > 900_000)
    throw new Error(`RTS_CLAIM_LEASE_MS must be a whole number of ms from 1000 to 900000, got ${value}`);
  return n;
}
