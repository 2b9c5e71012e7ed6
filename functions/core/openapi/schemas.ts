// The schemas route rows name (lib/routes.ts `body`, `response`, `query`): request bodies the handlers validate with,
// the response schemas next to each domain's views, and the filters of the list routes.
import type { ZodType } from 'zod';
import { campaignInputSchema } from '../campaigns/schema';
import { evalSetPatchSchema } from '../campaigns/eval-set-schema';
import { campaignListSchema, campaignSchema, campaignVersionListSchema, evalSetSchema, evalSetUpdateSchema } from '../campaigns/response-schemas';
import { ciBatchListSchema, ciBatchSchema, ciRunSchema, ciScenarioPageSchema, ciSubmissionSchema } from '../ci/response-schemas';
import { batchFilterSchema, batchScenarioFilterSchema } from '../ci/filter-schema';
import { ciRunRequestSchema } from '../ci/schema';
import { healthSchema, openApiDocumentSchema } from './response-blocks';
import {
  packQueuedSchema,
  policyEventPageSchema,
  runAttemptSchema,
  runAttemptsSchema,
  runDetailSchema,
  runListSchema,
  runQueuedSchema,
  securityEventsSchema,
} from '../runs/response-schemas';
import { runFilterSchema, runPackRequestSchema, runRequestSchema } from '../runs/schema';
import { traceCreatedSchema, traceListSchema, traceSchema, traceUploadSchema } from '../traces/response-schemas';
import { traceInputSchema } from '../traces/schema';
import {
  deliveryListSchema,
  deliveryQueuedSchema,
  recoverQueuedSchema,
  webhookCreatedSchema,
  webhookListSchema,
  webhookSchema,
  webhookSecretSchema,
} from '../webhooks/response-schemas';
import { webhookCreateSchema, webhookPatchSchema } from '../webhooks/schema';
import { webhookRecoverSchema } from '../webhooks/recover-schema';
import { mcpErrorSchema, mcpRequestSchema, mcpResponseSchema } from '../mcp/response-schemas';
import { classicOf } from './classic';
import { z } from './zod';

const otlpSchema = z
  .object({ resourceSpans: z.array(z.unknown()) })
  .openapi('OtlpExport', { description: 'An OTLP/JSON ExportTraceServiceRequest (GenAI semantic conventions or OpenInference spans).' });

/** Request body schemas, by the name a route row gives in `body` (zod/mini schemas, seen as classic ones). */
export const REQUEST_SCHEMAS = {
  TraceInput: z.union([classicOf(traceInputSchema), otlpSchema]),
  CampaignInput: classicOf(campaignInputSchema),
  EvalSetPatch: classicOf(evalSetPatchSchema),
  RunPackRequest: classicOf(runPackRequestSchema),
  RunRequest: classicOf(runRequestSchema),
  CiRunRequest: classicOf(ciRunRequestSchema),
  WebhookCreate: classicOf(webhookCreateSchema),
  WebhookPatch: classicOf(webhookPatchSchema),
  WebhookRecover: classicOf(webhookRecoverSchema),
  McpRequest: mcpRequestSchema,
} satisfies Record<string, ZodType>;

/** Success body schemas, by the name a route row gives in `response` (and `also`). */
export const RESPONSE_SCHEMAS = {
  Health: healthSchema,
  McpResponse: mcpResponseSchema,
  McpError: mcpErrorSchema,
  OpenApiDocument: openApiDocumentSchema,
  TraceCreated: traceCreatedSchema,
  TraceUpload: traceUploadSchema,
  TraceList: traceListSchema,
  Trace: traceSchema,
  Campaign: campaignSchema,
  CampaignList: campaignListSchema,
  CampaignVersionList: campaignVersionListSchema,
  EvalSet: evalSetSchema,
  EvalSetUpdate: evalSetUpdateSchema,
  PackQueued: packQueuedSchema,
  RunQueued: runQueuedSchema,
  RunList: runListSchema,
  RunDetail: runDetailSchema,
  RunAttempts: runAttemptsSchema,
  RunAttempt: runAttemptSchema,
  PolicyEventPage: policyEventPageSchema,
  SecurityEventsByAttempt: securityEventsSchema,
  CiSubmission: ciSubmissionSchema,
  CiRun: ciRunSchema,
  CiBatch: ciBatchSchema,
  CiScenarioPage: ciScenarioPageSchema,
  CiBatchList: ciBatchListSchema,
  WebhookCreated: webhookCreatedSchema,
  WebhookList: webhookListSchema,
  Webhook: webhookSchema,
  WebhookSecret: webhookSecretSchema,
  DeliveryList: deliveryListSchema,
  DeliveryQueued: deliveryQueuedSchema,
  RecoverQueued: recoverQueuedSchema,
} satisfies Record<string, ZodType>;

const runFilter = runFilterSchema.shape;
const batchFilter = batchFilterSchema.shape;

/** Filters of list routes (besides limit and cursor), by the name a route row gives in `query`: the handlers' schemas. */
export const QUERY_SCHEMAS = {
  CampaignVersionQuery: z.object({
    version: z
      .string()
      .regex(/^[1-9][0-9]{0,8}$/)
      .optional()
      .openapi({ description: 'Read this version of the campaign (404 for a version that never existed); default the current one.' }),
  }),
  RunFilter: z.object({
    campaign_id: classicOf(runFilter.campaign_id).openapi({ description: 'Only runs of this campaign.' }),
    trace_id: classicOf(runFilter.trace_id).openapi({ description: 'Only runs of this trace.' }),
    status: classicOf(runFilter.status).openapi({ description: 'Only runs in this state.' }),
  }),
  CiBatchFilter: z.object({
    campaign_id: classicOf(batchFilter.campaign_id).openapi({ description: 'Only batches of this campaign.' }),
    branch: classicOf(batchFilter.branch).openapi({ description: 'Only batches whose metadata.branch is this.' }),
  }),
  CiScenarioFilter: z.object({
    status: classicOf(batchScenarioFilterSchema.shape.status).openapi({
      description: 'Only scenarios that regressed or were fixed against the baseline, have a flaky cell, failed or passed.',
    }),
  }),
} satisfies Record<string, ZodType>;

export type RequestSchemaName = keyof typeof REQUEST_SCHEMAS;
export type ResponseSchemaName = keyof typeof RESPONSE_SCHEMAS;
export type QuerySchemaName = keyof typeof QUERY_SCHEMAS;
