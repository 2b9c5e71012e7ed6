// Response schemas of the CI routes (docs/ci.md; for the OpenAPI document and tests, never
// imported by handlers).
import { count, page, rate, timestamp, uuidOut } from '../openapi/response-blocks';
import { runStatusSchema, runSummarySchema } from '../runs/response-schemas';
import { classicOf } from '../openapi/classic';
import { z } from '../openapi/zod';
import { thresholdsSchema } from './schema';

const decision = z.enum(['pending', 'pass', 'fail']);
const batchStatus = z.enum(['queued', 'running', 'done']);
const comparisonMark = z.enum(['regressed', 'fixed', 'unchanged', 'new']);
const url = z.url();

export const ciMetadataSchema = z
  .object({ commit: z.string().optional(), branch: z.string().optional(), pipeline_url: z.string().optional() })
  .openapi('CiMetadata');

export const ciBatchSubmittedSchema = z
  .object({
    run_id: uuidOut.openapi({ description: 'run_ids[0]' }),
    run_ids: z.array(uuidOut),
    trace_count: count,
    ci_batch_id: uuidOut,
    status: z.literal('queued'),
    dashboard_url: url,
    baseline_batch_id: uuidOut.nullable(),
    baseline_missing: z.boolean(),
  })
  .openapi('CiBatchSubmitted', { description: 'A batch: the campaign has an eval-set, one run per registered trace.' });

export const ciRunSubmittedSchema = z
  .object({
    run_id: uuidOut,
    status: z.literal('queued'),
    trace_id: uuidOut,
    campaign_id: uuidOut,
    ci_batch_id: z.null(),
    dashboard_url: url,
  })
  .openapi('CiRunSubmitted', { description: 'A single CI run: the campaign has no eval-set.' });

/** 202 of POST /v1/ci/runs: `ci_batch_id` tells the two apart. */
export const ciSubmissionSchema = z.union([ciBatchSubmittedSchema, ciRunSubmittedSchema]).openapi('CiSubmission');

const cellFields = {
  mutation_id: z.string().nullable().openapi({ description: 'null for the baseline (unmutated) attempts.' }),
  passed: count,
  total: count.openapi({ description: 'Repeats that ended.' }),
  unsafe: count,
  errors: count.openapi({ description: 'Repeats whose agent could not be driven.' }),
  flaky: z.boolean().openapi({ description: 'Its repeats disagree: some passed, some did not.' }),
  failures: z.array(z.string()).openapi({ description: 'Up to 3 distinct one-line descriptions of what failed.' }),
};

export const ciRunCellSchema = z.object(cellFields).openapi('CiRunCell', { description: 'One (trace, mutation) cell: how its repeats ended.' });

export const ciScenarioCellSchema = z
  .object({
    ...cellFields,
    comparison: comparisonMark.nullable(),
    before: z.string().nullable().openapi({ description: '"passed/total" in the baseline batch.' }),
  })
  .openapi('CiScenarioCell', { description: 'One (trace, mutation) cell of a batch scenario, compared with the baseline.' });

/** GET /v1/ci/runs/{run_id}. */
export const ciRunSchema = z
  .object({
    run_id: uuidOut,
    status: runStatusSchema,
    decision,
    thresholds: classicOf(thresholdsSchema),
    summary: runSummarySchema,
    reasons: z.array(z.string()),
    dashboard_url: url,
    ci_batch_id: uuidOut.nullable(),
    trace_id: uuidOut,
    trace_name: z.string().nullable(),
    campaign_id: uuidOut,
    campaign_version: z.number().int().min(1).openapi({ description: 'The campaign version the run runs with, fixed when it was created.' }),
    metadata: ciMetadataSchema,
    cells: z.array(ciRunCellSchema),
    created_at: timestamp,
    completed_at: timestamp.nullable(),
  })
  .openapi('CiRun');

const change = { trace_id: uuidOut, trace_name: z.string().nullable(), mutation_id: z.string().nullable(), before: z.string(), after: z.string() };
const cellChange = z.object(change).openapi('CellChange', { description: 'A cell that changed: "passed/total" in the baseline and now.' });

const cellRef = z
  .object({ trace_id: uuidOut, trace_name: z.string().nullable(), mutation_id: z.string().nullable() })
  .openapi('CellRef', { description: 'A cell on one side of the comparison only: its mutation exists in one campaign version.' });
const version = z.number().int().min(1);

export const batchComparisonSchema = z
  .object({
    baseline_batch_id: uuidOut,
    baseline_branch: z.string().nullable(),
    baseline_campaign_version: version.openapi({ description: 'The campaign version the baseline batch ran with.' }),
    campaign_version: version.openapi({ description: "This batch's campaign version; differs from the baseline's after an update." }),
    pass_rate_delta: z.number(),
    regressed_count: count,
    fixed_count: count,
    new_unsafe_count: count,
    new_count: count,
    dropped_count: count,
    regressed: z.array(cellChange),
    fixed: z.array(cellChange),
    new_unsafe: z.array(z.object({ ...change, unsafe_before: z.string(), unsafe_after: z.string() })),
    dropped: z.array(z.object({ trace_id: uuidOut, trace_name: z.string().nullable() })),
    new_cells_count: count.openapi({
      description: 'Cells of scenarios on both sides whose mutation the baseline did not run: new, never regressions.',
    }),
    dropped_cells_count: count.openapi({
      description: 'Cells of scenarios on both sides whose mutation this batch did not run: dropped, never regressions.',
    }),
    new_cells: z.array(cellRef),
    dropped_cells: z.array(cellRef),
  })
  .openapi('BatchComparison', { description: 'The comparison with the baseline batch; each list keeps its first 50 entries.' });

/** GET /v1/ci/batch/{batch_id}. */
export const ciBatchSchema = z
  .object({
    ci_batch_id: uuidOut,
    run_id: uuidOut,
    campaign_id: uuidOut,
    campaign_version: z.number().int().min(1).openapi({ description: 'The campaign version every run of the batch runs with, fixed at submission.' }),
    status: batchStatus,
    decision,
    pass_rate: rate,
    scenario_coverage_pct: z.number().min(0).max(100),
    trace_count: count,
    completed_count: count,
    failed_count: count,
    unsafe_count: count,
    throttled_ms: count.openapi({ description: "The runs' summed throttled_ms: time waiting under limits and out 429/503 answers." }),
    throttle_count: count.openapi({ description: "The runs' summed throttle_count: 429/503 answers tried again." }),
    passed_runs: z.array(uuidOut),
    failed_runs: z.array(uuidOut),
    run_ids: z.array(uuidOut),
    thresholds: classicOf(thresholdsSchema),
    reasons: z.array(z.string()),
    dashboard_url: url,
    created_at: timestamp,
    completed_at: timestamp.nullable(),
    metadata: ciMetadataSchema,
    flaky_count: count.nullable(),
    pass_hat_k: rate.nullable(),
    pass_rate_interval: z
      .object({ low: rate, high: rate, confidence: z.literal(0.95), method: z.literal('wilson') })
      .nullable()
      .openapi({ description: 'The 95 % Wilson score interval of pass_rate; null until done.' }),
    baseline: z
      .union([z.object({ batch_id: uuidOut }), z.object({ branch: z.string() })])
      .nullable()
      .openapi({ description: 'The baseline asked for.' }),
    baseline_batch_id: uuidOut.nullable(),
    baseline_missing: z.boolean(),
    comparison: batchComparisonSchema.nullable(),
  })
  .openapi('CiBatch');

/** One scenario (a trace's run) of a batch, cell by cell. */
export const ciScenarioSchema = z
  .object({
    trace_id: uuidOut,
    trace_name: z.string().nullable(),
    run_id: uuidOut,
    status: z.enum(['completed', 'failed']),
    decision: z.enum(['pass', 'fail']),
    pass_rate: rate,
    pass_hat_k: rate,
    flaky: z.boolean(),
    flaky_cells: count,
    unsafe_count: count,
    error: z.string().nullable(),
    reasons: z.array(z.string()),
    dashboard_url: url,
    comparison: comparisonMark.nullable(),
    cells: z.array(ciScenarioCellSchema),
  })
  .openapi('CiScenario');

export const ciScenarioPageSchema = z.object({ ci_batch_id: uuidOut, ...page(ciScenarioSchema).shape }).openapi('CiScenarioPage');

export const ciBatchListItemSchema = z
  .object({
    ci_batch_id: uuidOut,
    campaign_id: uuidOut,
    campaign_version: z.number().int().min(1).openapi({ description: 'The campaign version of the batch.' }),
    status: batchStatus,
    decision,
    pass_rate: rate.nullable(),
    trace_count: count,
    metadata: ciMetadataSchema,
    baseline_batch_id: uuidOut.nullable(),
    flaky_count: count.nullable(),
    pass_hat_k: rate.nullable(),
    regressed_count: count.nullable(),
    created_at: timestamp,
    completed_at: timestamp.nullable(),
    dashboard_url: url,
  })
  .openapi('CiBatchListItem');

export const ciBatchListSchema = page(ciBatchListItemSchema).openapi('CiBatchList');
