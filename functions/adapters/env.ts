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
