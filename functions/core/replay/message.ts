// Reads a replay queue message body ({project_id, run_id, part?}); the worker and the dead-letter consumer share it.
import type { ReplayMessage } from '../ports';

/** The message in a record body, or null when the body is not a replay message. */
export function parseReplayMessage(body: string): ReplayMessage | null {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return null;
  }
  if (value === null || typeof value !== 'object') return null;
  const { project_id, run_id, part } = value as Record<string, unknown>;
  if (typeof project_id !== 'string' || project_id === '' || typeof run_id !== 'string' || run_id === '') return null;
  // A part that is not a whole number is read as absent: the delivery then works like the run's first one.
  return typeof part === 'number' && Number.isInteger(part) && part >= 0 ? { project_id, run_id, part } : { project_id, run_id };
}
