// Trace upload, read and listing: validation, content hashing for idempotent re-upload, trace.created.
import type { Deps, PageRequest } from '../ports';
import { ConflictError, NotFoundError, ValidationError } from '../errors';
import { canonicalJson, sha256Hex } from '../json';
import { projectEvent } from '../publish';
import { isoMicros } from '../time';
import type { Trace, TraceInput, TraceSummary } from './schema';

export interface TraceCreated {
  trace_id: string;
  name: string;
  created_at: string;
  step_count: number;
  tool_call_count: number;
  size_bytes: number;
}

export function traceCreatedView(t: TraceSummary): TraceCreated {
  return {
    trace_id: t.trace_id,
    name: t.name,
    created_at: t.created_at,
    step_count: t.step_count,
    tool_call_count: t.tool_call_count,
    size_bytes: t.size_bytes,
  };
}

function defaultName(input: TraceInput): string {
  const user = input.steps.find((s) => s.role === 'user');
  const text = user && 'content' in user && typeof user.content === 'string' ? user.content.trim().replace(/\s+/g, ' ') : '';
  return text ? (text.length > 80 ? `${text.slice(0, 77)}...` : text) : 'untitled trace';
}

/** The stored form of a validated trace under `trace_id`, and the hash of its content (what identical re-uploads share). */
export function buildTrace(input: TraceInput, trace_id: string, createdAt: string): { trace: Trace; contentHash: string } {
  const content = canonicalJson({ ...input, trace_id });
  const trace: Trace = {
    trace_id,
    name: input.name ?? defaultName(input),
    ...(input.agent ? { agent: input.agent } : {}),
    ...(input.model ? { model: input.model } : {}),
    tools: input.tools ?? [],
    steps: input.steps,
    metadata: input.metadata ?? {},
    tags: input.tags ?? [],
    created_at: createdAt,
    step_count: input.steps.length,
    tool_call_count: input.steps.reduce((n, s) => n + (s.role === 'assistant' ? (s.tool_calls?.length ?? 0) : 0), 0),
    size_bytes: Buffer.byteLength(content, 'utf8'),
  };
  return { trace, contentHash: sha256Hex(content) };
}

/** Stores a trace. Returns 201 for a new trace, 200 for an identical re-upload; different content under the same id is 409. */
export async function uploadTrace(deps: Deps, projectId: string, input: TraceInput): Promise<{ status: 200 | 201; body: TraceCreated }> {
  const trace_id = input.trace_id ?? deps.uuid();
  const { trace, contentHash } = buildTrace(input, trace_id, isoMicros(deps.clock.now()));
  const result = await deps.traces.putIfAbsent(projectId, trace, contentHash);
  if (!result.created) {
    if (!result.existing || result.existing.content_hash !== contentHash) {
      throw new ConflictError(`Trace ${trace_id} already exists with different content.`);
    }
    return { status: 200, body: traceCreatedView(result.existing) };
  }
  await deps.events.publish([projectEvent(deps, projectId, 'trace.created', { trace_id, name: trace.name, step_count: trace.step_count })]);
  return { status: 201, body: traceCreatedView(trace) };
}

export async function getTrace(deps: Deps, projectId: string, traceId: string): Promise<Trace> {
  const trace = await deps.traces.get(projectId, traceId);
  if (!trace) throw new NotFoundError('Trace');
  return trace;
}

export async function listTraces(deps: Deps, projectId: string, page: PageRequest) {
  return deps.traces.list(projectId, page);
}

/** Checks that every id names a trace of the project; unknown ones are a 422 `unknown_trace` listing them. */
export async function assertTracesExist(deps: Deps, projectId: string, traceIds: string[]): Promise<void> {
  if (traceIds.length === 0) return;
  const found = await deps.traces.existing(projectId, traceIds);
  const missing = [...new Set(traceIds)].filter((id) => !found.has(id));
  if (missing.length) {
    throw new ValidationError(
      `${missing.length} trace id(s) are not traces of this project.`,
      missing.slice(0, 100).map((id) => ({ path: 'trace_ids', message: `unknown trace ${id}`, trace_id: id })),
      'unknown_trace',
    );
  }
}
