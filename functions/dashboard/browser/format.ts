// Formatting of API values into display strings: numbers, rates, durations, JSON, badge colours and safe URLs.

/** A rate in [0, 1] as a percentage with one decimal, '-' when not a number. */
export function pct(x: unknown): string {
  if (typeof x !== 'number' || !Number.isFinite(x)) return '-';
  return `${Math.round(x * 1000) / 10}%`;
}

/** A change of rate in [-1, 1] as signed percentage points: `+5.0 pp`, `-12.5 pp`, '-' when not a number. */
export function deltaPct(x: unknown): string {
  if (typeof x !== 'number' || !Number.isFinite(x)) return '-';
  const v = Math.round(x * 1000) / 10;
  return `${v > 0 ? '+' : v < 0 ? '-' : ''}${Math.abs(v).toFixed(1)} pp`;
}

/** The thresholds that are set, as `name value` pairs joined by commas; 'none' when there are none. */
export function thresholdsText(t: object | null | undefined): string {
  const parts = Object.entries(t || {})
    .filter(([, v]) => typeof v === 'number')
    .map(([k, v]) => `${k} ${String(v)}`);
  return parts.length ? parts.join(', ') : 'none';
}

/** A commit hash's first 7 characters, as git abbreviates it (any other value as it is). */
export function shortCommit(commit: string): string {
  return /^[0-9a-f]{8,}$/i.test(commit) ? commit.slice(0, 7) : commit;
}

/** A finite number as text, '-' otherwise. */
export function num(x: unknown): string {
  return typeof x === 'number' && Number.isFinite(x) ? String(x) : '-';
}

/** Milliseconds as `850 ms` or `1.2 s`. */
export function duration(ms: unknown): string {
  if (typeof ms !== 'number') return '-';
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 100) / 10} s`;
}

/** An ISO timestamp shortened for display: `2024-05-01 12:00:00 UTC`. */
export function shortTime(iso: string): string {
  return String(iso)
    .replace('T', ' ')
    .replace(/\.\d+/, '')
    .replace(/\+00:00$|Z$/, ' UTC');
}

/** A value as readable text: strings as they are, anything else as indented JSON. */
export function asText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value, null, 2);
  } catch {
    return String(value);
  }
}

/** A value on one line: strings as they are, anything else as compact JSON. */
export function compact(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}

/** The colour class of a status, decision, action or risk level (the `b-<kind>` CSS classes). */
export type BadgeKind = 'ok' | 'bad' | 'warn' | 'run' | 'idle';

export function badgeKind(value: unknown): BadgeKind {
  switch (String(value)) {
    case 'passed':
    case 'completed':
    case 'pass':
    case 'done':
    case 'blocked':
    case 'allow':
    case 'recorded':
    case 'fixed':
    case 'succeeded':
    case 'enabled':
      return 'ok';
    case 'failed':
    case 'fail':
    case 'error':
    case 'allowed':
    case 'deny':
    case 'denied':
    case 'critical':
    case 'high':
    case 'regressed':
      return 'bad';
    case 'unsafe':
    case 'flag':
    case 'detected':
    case 'medium':
    case 'unrecorded':
    case 'flaky':
    case 'paused':
      return 'warn';
    case 'running':
    case 'new':
      return 'run';
    default:
      return 'idle';
  }
}

/** The URL when it is http(s), else null: anything else (javascript:, data:) must stay text. */
export function safeUrl(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  try {
    const u = new URL(value);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.href : null;
  } catch {
    return null;
  }
}

/** Whether a run or CI run status may still change. */
export function isActive(status: unknown): boolean {
  return status === 'queued' || status === 'running';
}
