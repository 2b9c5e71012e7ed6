// The attempts of a run as the API serves them: a page with each attempt's large values cut to size (served tool
// results can weigh megabytes, and every attempt of a run carries them again), or one attempt whole.
import type { Deps, PageRequest, StorePage } from '../ports';
import { NotFoundError } from '../errors';
import { toAttemptScore } from '../replay/scoring';
import { MAX_ATTEMPTS_PER_RUN } from '../limits';
import { loadRun } from './service';
import type { AttemptRecord, PolicyEvent, TranscriptEntry } from './types';

/** Characters of one value (a message, a served result, arguments as JSON) shown in a listing. */
export const LISTED_VALUE_MAX = 4 * 1024;
/** Characters of values shown per attempt in a listing; past it each value keeps LISTED_VALUE_MIN. */
export const LISTED_ATTEMPT_BUDGET = 32 * 1024;
const LISTED_VALUE_MIN = 64;
/** Bytes of attempts per page: a page ends early past it (well under a Lambda response's 6 MB). */
export const LISTED_PAGE_BUDGET = 4 * 1024 * 1024;

/** An attempt as served: its score, times, output, transcript and events; `truncated` when values were cut. */
export type AttemptView = ReturnType<typeof attemptFields> & { truncated: boolean };

function attemptFields(a: AttemptRecord) {
  return {
    ...toAttemptScore(a),
    started_at: a.started_at,
    completed_at: a.completed_at,
    output: a.output,
    ...(a.turn_outputs ? { turn_outputs: a.turn_outputs } : {}),
    transcript: a.transcript as (TranscriptEntry & { truncated?: true })[],
    policy_events: a.policy_events,
    security_events: a.security_events,
  };
}

/** What is left of an attempt's share, where its values are cut, and whether one was. */
interface Cutter {
  left: number;
  where: string;
  cut: boolean;
}

/** A text's first `n` characters, not splitting a surrogate pair. */
function head(text: string, n: number): string {
  const code = text.charCodeAt(n - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? n - 1 : n);
}

/** The value, or (when its text is over what is left) its text's start with a marker saying how to read it whole. */
function fit(value: unknown, c: Cutter): { value: unknown; cut: boolean } {
  if (value === null || value === undefined) return { value, cut: false };
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  const cap = Math.min(LISTED_VALUE_MAX, Math.max(c.left, LISTED_VALUE_MIN));
  if (text.length <= cap) {
    c.left -= text.length;
    return { value, cut: false };
  }
  c.left -= cap;
  c.cut = true;
  return { value: `${head(text, cap)}… [truncated by rts: ${text.length} characters; the whole attempt: GET ${c.where}]`, cut: true };
}

/** Object-typed values (tool arguments) stay objects when cut: `{"rts_truncated": "<start of their JSON>…"}`. */
function fitObject(value: Record<string, unknown>, c: Cutter): { value: Record<string, unknown>; cut: boolean } {
  const r = fit(value, c);
  return r.cut ? { value: { rts_truncated: r.value }, cut: true } : { value, cut: false };
}

function fitEntry(e: TranscriptEntry, c: Cutter): TranscriptEntry & { truncated?: true } {
  if (e.type === 'message') {
    const content = fit(e.content, c);
    const calls = e.tool_calls?.map((call) => {
      const args = fitObject(call.arguments, c);
      return { call: args.cut ? { ...call, arguments: args.value } : call, cut: args.cut };
    });
    const cut = content.cut || (calls?.some((x) => x.cut) ?? false);
    if (!cut) return e;
    return {
      ...e,
      content: content.value as string | null,
      ...(calls ? { tool_calls: calls.map((x) => x.call) } : {}),
      truncated: true,
    };
  }
  const args = fitObject(e.arguments, c);
  const result = fit(e.result, c);
  const error = fit(e.error, c);
  if (!args.cut && !result.cut && !error.cut) return e;
  return { ...e, arguments: args.value, result: result.value, error: error.value as string | null, truncated: true };
}

function fitEvent(e: PolicyEvent, c: Cutter): PolicyEvent {
  const args = fitObject(e.arguments, c);
  return args.cut ? { ...e, arguments: args.value } : e;
}

/** An attempt as listed: every value over its share cut (see `fit`), `truncated: true` when one was. */
export function listedAttempt(a: AttemptRecord, runId: string): AttemptView {
  const c: Cutter = { left: LISTED_ATTEMPT_BUDGET, where: `/v1/runs/${runId}/attempts/${a.attempt}`, cut: false };
  const fields = attemptFields(a);
  const output = fit(fields.output, c);
  const turnOutputs = fields.turn_outputs?.map((o) => fit(o, c).value as string);
  const transcript = fields.transcript.map((e) => fitEntry(e, c));
  const policy_events = fields.policy_events.map((e) => fitEvent(e, c));
  return {
    ...fields,
    output: output.value as string | null,
    ...(turnOutputs ? { turn_outputs: turnOutputs } : {}),
    transcript,
    policy_events,
    truncated: c.cut,
  };
}

/**
 * GET /v1/runs/{id}/attempts: a page of attempts by number, each cut to its share (`listedAttempt`); the page ends
 * early, with a cursor, once its attempts pass LISTED_PAGE_BUDGET bytes.
 */
export async function getRunAttemptsPage(deps: Deps, projectId: string, runId: string, page: PageRequest): Promise<StorePage<AttemptView>> {
  await loadRun(deps, projectId, runId);
  let bytes = 0;
  let full = false;
  const res = await deps.runs.listAttemptPage(projectId, runId, page, (a) => {
    if (full) return null; // past the budget: not built, the next page starts at it
    const view = listedAttempt(a, runId);
    bytes += Buffer.byteLength(JSON.stringify(view));
    if (bytes > LISTED_PAGE_BUDGET) full = true;
    return view;
  });
  const items = res.items.filter((v): v is AttemptView => v !== null);
  if (items.length === res.items.length) return { items, last: res.last };
  return { items, last: { attempt: items[items.length - 1].attempt } };
}

/** GET /v1/runs/{id}/attempts/{attempt}: one stored attempt, nothing cut; 404 for a number not stored. */
export async function getRunAttempt(deps: Deps, projectId: string, runId: string, attemptParam: string): Promise<AttemptView> {
  const n = /^[1-9][0-9]{0,3}$/.test(attemptParam) ? Number(attemptParam) : 0;
  if (n < 1 || n > MAX_ATTEMPTS_PER_RUN) throw new NotFoundError('Attempt');
  await loadRun(deps, projectId, runId);
  const a = await deps.runs.getAttempt(projectId, runId, n);
  if (!a) throw new NotFoundError('Attempt');
  return { ...attemptFields(a), truncated: false };
}
