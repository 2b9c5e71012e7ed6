// Time as an injectable clock, and the one timestamp format (docs/api.md#timestamps).

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** ISO 8601 UTC with microseconds and an explicit offset: 2026-11-21T23:59:01.123456+00:00. */
export function isoMicros(date: Date): string {
  const iso = date.toISOString(); // 2026-11-21T23:59:01.123Z
  return `${iso.slice(0, 23)}000+00:00`;
}

export function nowIso(clock: Clock = systemClock): string {
  return isoMicros(clock.now());
}
