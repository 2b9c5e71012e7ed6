// Reads a replay queue message body ({project_id, run_id, part?, replays?}); the worker and the dead-letter consumer
// share it.
import type { ReplayMessage, RunInputs } from '../ports';

/** The message in a record body, or null when the body is not a replay message. */
export function parseReplayMessage(body: string): ReplayMessage | null {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return null;
  }
  if (value === null || typeof value !== 'object') return null;
  const { project_id, run_id, part, replays } = value as Record<string, unknown>;
  if (typeof project_id !== 'string' || project_id === '' || typeof run_id !== 'string' || run_id === '') return null;
  const msg: ReplayMessage = { project_id, run_id };
  // A part that is not a whole number is read as absent: the delivery then works like the run's first one.
  if (typeof part === 'number' && Number.isInteger(part) && part >= 0) msg.part = part;
  // What the run replays, when whole; else absent, and the delivery reads the run first.
  const inputs = runInputsOf(replays);
  if (inputs) msg.replays = inputs;
  return msg;
}

function runInputsOf(value: unknown): RunInputs | null {
  if (value === null || typeof value !== 'object') return null;
  const { trace_id, campaign_id, campaign_version } = value as Record<string, unknown>;
  const id = (v: unknown): v is string => typeof v === 'string' && v !== '';
  if (!id(trace_id) || !id(campaign_id)) return null;
  if (typeof campaign_version !== 'number' || !Number.isInteger(campaign_version) || campaign_version < 1) return null;
  return { trace_id, campaign_id, campaign_version };
}
