// Reads a replay queue message body ({project_id, run_id}); the worker and the dead-letter consumer share it.
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
  const { project_id, run_id } = value as Record<string, unknown>;
  if (typeof project_id !== 'string' || project_id === '' || typeof run_id !== 'string' || run_id === '') return null;
  return { project_id, run_id };
}
