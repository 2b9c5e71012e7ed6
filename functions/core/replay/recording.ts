// The recording as a lookup index: which tool results the trace holds, served at most once each per attempt
// (docs/campaigns-and-replay.md#serving).
import { canonical } from './values';
import type { Trace } from '../traces/schema';

/** A tool result as the agent receives it. Errors travel as `{"error": "..."}` with `error` set. */
export interface ServedResult {
  content: unknown;
  error: string | null;
}

export interface RecordedCall {
  name: string;
  argsKey: string;
  result: ServedResult;
}

export interface Recording {
  /** Recorded calls that have an answer, in trace order. */
  calls: RecordedCall[];
  byName: Map<string, number[]>;
  byNameAndArgs: Map<string, number[]>;
  /** Tool names of every recorded call, in order (same_tools_as_recorded). */
  toolSequence: string[];
}

/** Key of a call for exact matching: tool name plus canonical JSON arguments. */
export function callKey(name: string, argsKey: string): string {
  return `${name}\u0000${argsKey}`;
}

/** Indexes the trace's recorded tool calls and their answers once per run. */
export function indexRecording(trace: Pick<Trace, 'steps'>): Recording {
  const answers = new Map<string, ServedResult>();
  for (const step of trace.steps) {
    if (step.role !== 'tool' || answers.has(step.tool_call_id)) continue;
    answers.set(
      step.tool_call_id,
      step.error !== undefined ? { content: { error: step.error }, error: step.error } : { content: step.content ?? null, error: null },
    );
  }
  const recording: Recording = { calls: [], byName: new Map(), byNameAndArgs: new Map(), toolSequence: [] };
  for (const step of trace.steps) {
    if (step.role !== 'assistant') continue;
    for (const call of step.tool_calls ?? []) {
      recording.toolSequence.push(call.name);
      const result = answers.get(call.id);
      if (!result) continue;
      const argsKey = canonical(call.arguments);
      const index = recording.calls.push({ name: call.name, argsKey, result }) - 1;
      push(recording.byName, call.name, index);
      push(recording.byNameAndArgs, callKey(call.name, argsKey), index);
    }
  }
  return recording;
}

function push(map: Map<string, number[]>, key: string, value: number): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** Per-attempt serving state: each recorded result is served at most once. */
export class RecordingCursor {
  private readonly used: Uint8Array;

  constructor(private readonly recording: Recording) {
    this.used = new Uint8Array(recording.calls.length);
  }

  /** First an unused call with the same tool and arguments, else the next unused call of that tool, else null. */
  take(name: string, argsKey: string): RecordedCall | null {
    const index = this.firstUnused(this.recording.byNameAndArgs.get(callKey(name, argsKey))) ?? this.firstUnused(this.recording.byName.get(name));
    if (index === undefined) return null;
    this.used[index] = 1;
    return this.recording.calls[index];
  }

  /**
   * Puts a taken result back: when a mutation made the call fail (an injected error or timeout), the real tool
   * never answered, so an agent that retries the call must still find the recorded answer.
   */
  giveBack(call: RecordedCall): void {
    const index = this.recording.calls.indexOf(call);
    if (index >= 0) this.used[index] = 0;
  }

  private firstUnused(indexes: number[] | undefined): number | undefined {
    if (!indexes) return undefined;
    for (const i of indexes) if (!this.used[i]) return i;
    return undefined;
  }
}
