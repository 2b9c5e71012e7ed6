// Response schemas of the run and run-pack routes (docs/campaigns-and-replay.md; for the OpenAPI document and tests,
// never imported by handlers).
import { criterionOut, policyOut } from '../campaigns/response-schemas';
import { DETECTORS } from '../campaigns/schema';
import { count, jsonObjectOut, page, rate, timestamp, uuidOut } from '../openapi/response-blocks';
import { toolCallOut } from '../traces/response-schemas';
import { z } from '../openapi/zod';

export const runStatusSchema = z.enum(['queued', 'running', 'completed', 'failed']).openapi('RunStatus');
const nullableId = uuidOut.nullable();

export const runSummarySchema = z
  .object({
    attempt_count: count,
    passed_count: count,
    failed_count: count.openapi({ description: 'Everything not passed, errors included.' }),
    unsafe_count: count,
    pass_rate: rate,
    policy_events_count: count,
    security_events_count: count,
    throttled_ms: count.openapi({ description: "Sum of the attempts' throttled_ms: time spent waiting under limits and out 429/503 answers." }),
    throttle_count: count.openapi({ description: "Sum of the attempts' throttle_count: 429/503 answers tried again." }),
  })
  .openapi('RunSummary', { description: 'Counts over the attempts finished so far.' });

/** 202 of POST /v1/runs. */
export const runQueuedSchema = z
  .object({ run_id: uuidOut, status: z.literal('queued'), trace_id: uuidOut, campaign_id: uuidOut, created_at: timestamp })
  .openapi('RunQueued');

/** 202 of POST /v1/campaigns/{campaign_id}/run-pack. */
export const packQueuedSchema = z
  .object({ pack_id: uuidOut, campaign_id: uuidOut, run_ids: z.array(uuidOut), trace_count: count })
  .openapi('PackQueued');

const runFields = {
  run_id: uuidOut,
  trace_id: uuidOut,
  trace_name: z.string().nullable(),
  campaign_id: uuidOut,
  campaign_version: z.number().int().min(1).openapi({ description: 'The campaign version the run runs with, fixed when it was created.' }),
  source: z.enum(['replay', 'ci', 'pack']),
  status: runStatusSchema,
  created_at: timestamp,
  started_at: timestamp.nullable(),
  completed_at: timestamp.nullable(),
  summary: runSummarySchema,
  error: z.string().nullable().openapi({ description: 'Why a run failed (no verdict could be produced).' }),
  ci_batch_id: nullableId,
  pack_id: nullableId,
};

export const runSchema = z.object(runFields).openapi('Run');
export const runListSchema = page(runSchema).openapi('RunList');

const checkSchema = z.object({ criterion: criterionOut, passed: z.boolean(), detail: z.string() });

const attemptScoreFields = {
  attempt: z.number().int().min(1),
  mutation_id: z.string().nullable().openapi({ description: 'null for the baseline attempt.' }),
  repeat: z.number().int().min(1),
  status: z.enum(['passed', 'failed', 'error']),
  unsafe: z.boolean(),
  checks: z.array(checkSchema),
  steps: count,
  duration_ms: count,
  error: z.string().nullable(),
  error_code: z
    .enum(['target_unavailable', 'judge_unavailable', 'user_simulator_unavailable', 'run_deadline_exceeded', 'rate_limited'])
    .nullable()
    .optional()
    .openapi({
      description:
        "Why an attempt is an error: the agent, the llm_judge model or the simulated user's model could not be driven, the run's deadline (the worker's time budget) passed before the attempt ended, or the agent, model, judge or simulated user stayed throttled (429/503) past its limits.max_wait_s; null otherwise.",
    }),
  throttled_ms: count.optional().openapi({
    description:
      'Time spent waiting for a turn under the limits and out 429/503 answers, ms; not part of duration_ms. Absent on attempts stored before it was recorded.',
  }),
  throttle_count: count.optional().openapi({ description: '429/503 answers tried again after waiting.' }),
};

export const attemptScoreSchema = z.object(attemptScoreFields).openapi('AttemptScore');

/** GET /v1/runs/{run_id} (docs/campaigns-and-replay.md#run-lifecycle). */
export const runDetailSchema = z
  .object({
    ...runFields,
    attempt_total: count.nullable().openapi({ description: 'Attempt plan size, fixed when the run starts.' }),
    scoring: z.object({
      criteria: z.array(criterionOut),
      policies: z.array(policyOut),
      detectors: z.array(z.enum(DETECTORS)),
      attempts: z.array(attemptScoreSchema),
      judge_calls: count,
      judge_cache_hits: count,
      judge_prompt_version: z.string().nullable(),
      user_simulator_calls: count.openapi({ description: 'Simulated-user messages asked of its model, over the attempts.' }),
      user_simulator_cache_hits: count.openapi({ description: 'Simulated-user messages served from the cache, over the attempts.' }),
      user_simulator_prompt_version: z
        .string()
        .nullable()
        .openapi({ description: "The simulated user's prompt version (rts-user-1); null without a user_simulator." }),
    }),
  })
  .openapi('RunDetail');

export const policyEventSchema = z
  .object({
    event_id: z.string(),
    run_id: uuidOut,
    attempt: z.number().int().min(1),
    sequence: count,
    step: count,
    policy_id: z.string(),
    policy_type: z.enum(['deny_tools', 'allow_tools', 'argument_constraint', 'max_tool_calls', 'no_repeated_calls', 'flow', 'unrecorded_tool_call']),
    decision: z.enum(['allow', 'deny', 'flag']),
    tool: z.string(),
    arguments: jsonObjectOut,
    reason: z.string(),
    created_at: timestamp,
  })
  .openapi('PolicyEvent');

export const securityEventSchema = z
  .object({
    event_id: z.string(),
    run_id: uuidOut,
    attempt: z.number().int().min(1),
    sequence: count,
    step: count,
    kind: z.enum(DETECTORS),
    action: z.enum(['detected', 'blocked', 'allowed']),
    risk: z.object({ score: rate, level: z.enum(['low', 'medium', 'high', 'critical']) }),
    source: z.object({ type: z.enum(['tool_result', 'tool_call', 'output']), tool: z.string().optional() }),
    evidence: z.string().openapi({ description: 'A short excerpt, secrets masked.' }),
    mutation_id: z.string().nullable(),
    created_at: timestamp,
  })
  .openapi('SecurityEvent');

const entryTruncated = z.literal(true).optional().openapi({
  description:
    'Present in a listing when a value of this entry was cut: a string keeps its start and a marker; tool arguments become {"rts_truncated": "<start of their JSON>..."}.',
});

export const transcriptEntrySchema = z
  .discriminatedUnion('type', [
    z.object({
      type: z.literal('message'),
      role: z.enum(['system', 'user', 'assistant']),
      content: z.string().nullable(),
      tool_calls: z.array(toolCallOut).optional(),
      notes: z.array(z.string()).optional().openapi({ description: "What the engine had to repair in the agent's answer." }),
      turn: z.number().int().min(1).optional().openapi({
        description:
          'The user turn this message belongs to, from 1; present only when the trace has several user turns or the campaign a user_simulator (a turn opens with its user message).',
      }),
      simulated: z.literal(true).optional().openapi({ description: 'Present (true) on a user message the simulated user wrote.' }),
      truncated: entryTruncated,
    }),
    z.object({
      type: z.literal('tool_result'),
      step: count,
      tool_call_id: z.string(),
      tool: z.string(),
      arguments: jsonObjectOut,
      served: z.enum(['recorded', 'denied', 'unrecorded']),
      mutation_id: z.string().nullable(),
      result: z.unknown(),
      error: z.string().nullable(),
      truncated: entryTruncated,
    }),
  ])
  .openapi('TranscriptEntry');

/** One attempt with its transcript and events: whole from GET .../attempts/{attempt}, cut to size in the listing. */
export const runAttemptSchema = z
  .object({
    ...attemptScoreFields,
    started_at: timestamp,
    completed_at: timestamp,
    output: z.string().nullable().openapi({ description: "The agent's last output (of the last turn it answered)." }),
    turn_outputs: z
      .array(z.string())
      .optional()
      .openapi({
        description:
          "The agent's output for each user turn it answered, turn 1 first; present only when the trace has several user turns " +
          '(a turn never answered has no entry).',
      }),
    transcript: z.array(transcriptEntrySchema),
    policy_events: z.array(policyEventSchema),
    security_events: z.array(securityEventSchema),
    truncated: z.boolean().openapi({
      description:
        'true when the listing cut values of this attempt (the output, turn outputs, messages, served results, tool arguments; see the ' +
        "entries' `truncated`) to bound the page; GET /v1/runs/{run_id}/attempts/{attempt} returns it whole (always false there).",
    }),
  })
  .openapi('RunAttempt');

/** GET /v1/runs/{run_id}/attempts: a page of attempts by number. */
export const runAttemptsSchema = z.object({ run_id: uuidOut, ...page(runAttemptSchema).shape }).openapi('RunAttempts', {
  description:
    'Attempts by number, each cut to about 32 KiB of values (a cut value ends with a marker naming the whole-attempt route); ' +
    'a page ends early, with a next_cursor, past 4 MiB.',
});

export const policyEventPageSchema = z
  .object({ run_id: uuidOut, ...page(policyEventSchema).shape })
  .openapi('PolicyEventPage', { description: 'Ordered by attempt, then sequence.' });

/** GET /v1/runs/{run_id}/security-events: every planned attempt, those without events with `events: []`. */
export const securityEventsSchema = z
  .object({
    run_id: uuidOut,
    attempts: z.array(
      z.object({ attempt: z.number().int().min(1), mutation_id: z.string().nullable(), unsafe: z.boolean(), events: z.array(securityEventSchema) }),
    ),
  })
  .openapi('SecurityEventsByAttempt');
