// Types from the document: openapi-typescript generates them without error and real API answers compile
// against them; functions/sdk/api-types.d.ts is those types, up to date; and tsc checks, in this file, that the views
// return what the response schemas document and that the SDK's types match the document.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { z } from 'zod';
import type { campaignSchema, evalSetSchema } from '../../../functions/core/campaigns/responses';
import type { getCampaign, getEvalSet } from '../../../functions/core/campaigns/service';
import type { ciBatchListItemSchema, ciBatchSchema, ciRunSchema, ciScenarioSchema, ciSubmissionSchema } from '../../../functions/core/ci/responses';
import type { submitCiRun } from '../../../functions/core/ci/service';
import type { batchListingView, getCiBatch, getCiRun, scenarioView } from '../../../functions/core/ci/views';
import { openApiDocument } from '../../../functions/core/openapi';
import type {
  packQueuedSchema,
  runAttemptSchema,
  runAttemptsSchema,
  runDetailSchema,
  runQueuedSchema,
  runSchema,
  securityEventsSchema,
} from '../../../functions/core/runs/responses';
import type { createRunPack } from '../../../functions/core/runs/pack';
import type { createReplayRun, runView } from '../../../functions/core/runs/service';
import type { getRunAttempt, getRunAttemptsPage } from '../../../functions/core/runs/attempt-view';
import type { getRunDetail, getSecurityEvents } from '../../../functions/core/runs/views';
import type { traceCreatedSchema, traceSchema, traceSummarySchema } from '../../../functions/core/traces/responses';
import type { TraceSummary } from '../../../functions/core/traces/schema';
import type { getTrace, traceCreatedView } from '../../../functions/core/traces/service';
import type { deliveryQueuedSchema, deliverySchema, webhookCreatedSchema, webhookSchema } from '../../../functions/core/webhooks/responses';
import type { DeliveryLogEntry } from '../../../functions/core/webhooks/schema';
import type { createWebhook, getWebhook } from '../../../functions/core/webhooks/service';
import type { resendDelivery } from '../../../functions/core/webhooks/recovery';
import type { components } from '../../../functions/sdk/api-types';
import type * as sdk from '../../../packages/sdk/src/index';
import { routes } from '../../../lib/routes';
import { openApiTool, withDocFile } from '../../helpers/openapi';

const ROOT = join(__dirname, '..', '..', '..');
const FIXTURES = join(ROOT, 'test', 'fixtures', 'api-answers.json');
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

type Out<F extends (...args: never[]) => unknown> = Awaited<ReturnType<F>>;
/** true when every A is a B: `const x: Fits<A, B> = true` does not compile otherwise. */
type Fits<A, B> = [A] extends [B] ? true : false;
type S = components['schemas'];

/** The views' return types fit the response schemas the document is generated from (a drift fails `tsc`). */
const viewsFitSchemas: true[] = [
  true satisfies Fits<ReturnType<typeof traceCreatedView>, z.infer<typeof traceCreatedSchema>>,
  true satisfies Fits<TraceSummary, z.infer<typeof traceSummarySchema>>,
  true satisfies Fits<Out<typeof getTrace>, z.infer<typeof traceSchema>>,
  true satisfies Fits<Out<typeof getCampaign>, z.infer<typeof campaignSchema>>,
  true satisfies Fits<Out<typeof getEvalSet>, z.infer<typeof evalSetSchema>>,
  true satisfies Fits<Out<typeof createRunPack>, z.infer<typeof packQueuedSchema>>,
  // The service types status as any RunStatus; a new run is always 'queued', as documented.
  true satisfies Fits<Omit<Out<typeof createReplayRun>, 'status'>, Omit<z.infer<typeof runQueuedSchema>, 'status'>>,
  true satisfies Fits<ReturnType<typeof runView>, z.infer<typeof runSchema>>,
  true satisfies Fits<Out<typeof getRunDetail>, z.infer<typeof runDetailSchema>>,
  true satisfies Fits<Out<typeof getRunAttemptsPage>['items'], z.infer<typeof runAttemptsSchema>['items']>,
  true satisfies Fits<Out<typeof getRunAttempt>, z.infer<typeof runAttemptSchema>>,
  true satisfies Fits<Out<typeof getSecurityEvents>, z.infer<typeof securityEventsSchema>>,
  true satisfies Fits<Out<typeof submitCiRun>, z.infer<typeof ciSubmissionSchema>>,
  // getCiRun's decision is typed string: the values are those of the enum (the contract test checks the answers).
  true satisfies Fits<Omit<Out<typeof getCiRun>, 'decision'>, Omit<z.infer<typeof ciRunSchema>, 'decision'>>,
  true satisfies Fits<Out<typeof getCiBatch>, z.infer<typeof ciBatchSchema>>,
  true satisfies Fits<ReturnType<typeof scenarioView>, z.infer<typeof ciScenarioSchema>>,
  true satisfies Fits<ReturnType<typeof batchListingView>, z.infer<typeof ciBatchListItemSchema>>,
  true satisfies Fits<Out<typeof createWebhook>, z.infer<typeof webhookCreatedSchema>>,
  true satisfies Fits<Out<typeof getWebhook>, z.infer<typeof webhookSchema>>,
  true satisfies Fits<DeliveryLogEntry, z.infer<typeof deliverySchema>>,
  true satisfies Fits<Out<typeof resendDelivery>, z.infer<typeof deliveryQueuedSchema>>,
];

/**
 * The SDK package's hand-written types (packages/sdk, which functions/sdk re-exports) accept every answer the document promises,
 * and its request types send only what the document accepts.
 */
const sdkMatchesDocument: true[] = [
  true satisfies Fits<S['Health'], sdk.Health>,
  true satisfies Fits<S['OpenApiDocument'], sdk.OpenApiDocument>,
  true satisfies Fits<S['TraceCreated'], sdk.TraceCreated>,
  true satisfies Fits<S['TraceList'], sdk.Page<sdk.TraceSummary>>,
  true satisfies Fits<S['Trace'], sdk.Trace>,
  true satisfies Fits<S['OtlpExportResult'], sdk.OtlpExportResult>,
  true satisfies Fits<S['Campaign'], sdk.Campaign>,
  true satisfies Fits<S['CampaignList'], sdk.Page<sdk.Campaign>>,
  true satisfies Fits<S['EvalSet'], sdk.EvalSet>,
  true satisfies Fits<S['EvalSetUpdate'], sdk.EvalSetUpdate>,
  true satisfies Fits<S['PackQueued'], sdk.PackQueued>,
  true satisfies Fits<S['RunQueued'], sdk.RunQueued>,
  true satisfies Fits<S['RunList'], sdk.Page<sdk.Run>>,
  true satisfies Fits<S['RunDetail'], sdk.RunDetail>,
  true satisfies Fits<S['RunAttempts'], sdk.RunAttempts>,
  true satisfies Fits<S['RunAttempt'], sdk.AttemptDetail>,
  true satisfies Fits<S['PolicyEventPage'], sdk.PolicyEventPage>,
  true satisfies Fits<S['SecurityEventsByAttempt'], sdk.SecurityEventsByAttempt>,
  true satisfies Fits<S['CiSubmission'], sdk.CiSubmission>,
  true satisfies Fits<S['CiRun'], sdk.CiRunView>,
  true satisfies Fits<S['CiBatch'], sdk.CiBatchView>,
  true satisfies Fits<S['CiScenarioPage'], sdk.CiScenarioPage>,
  true satisfies Fits<S['CiBatchList'], sdk.Page<sdk.CiBatchListItem>>,
  true satisfies Fits<S['WebhookCreated'], sdk.WebhookCreated>,
  true satisfies Fits<S['WebhookList'], sdk.Page<sdk.Webhook>>,
  true satisfies Fits<S['Webhook'], sdk.Webhook>,
  true satisfies Fits<S['WebhookSecret'], sdk.WebhookSecret>,
  true satisfies Fits<S['DeliveryList'], sdk.Page<sdk.Delivery>>,
  true satisfies Fits<S['DeliveryQueued'], sdk.DeliveryQueued>,
  true satisfies Fits<S['RecoverQueued'], sdk.RecoverQueued>,
  true satisfies Fits<S['Error'], sdk.ApiErrorBody>,
  // Not TraceInput: the SDK also sends tool-call arguments as JSON text, which the API parses but the document (the
  // request schema's z.preprocess, rendered as its object) does not say.
  true satisfies Fits<sdk.CampaignInput, S['CampaignInput']>,
  true satisfies Fits<sdk.EvalSetPatch, S['EvalSetPatch']>,
  true satisfies Fits<sdk.RunPackRequest, S['RunPackRequest']>,
  true satisfies Fits<sdk.RunRequest, S['RunRequest']>,
  true satisfies Fits<sdk.CiRunRequest, S['CiRunRequest']>,
  true satisfies Fits<sdk.WebhookInput, S['WebhookCreate']>,
  true satisfies Fits<sdk.WebhookPatch, S['WebhookPatch']>,
  true satisfies Fits<sdk.RecoverRequest, S['WebhookRecover']>,
];

/** tsc over `files` with the repository's strictness; returns its diagnostics ('' when it compiles). */
function tsc(files: string[]): string {
  try {
    execFileSync(process.execPath, [TSC, '--noEmit', '--strict', '--target', 'ES2022', '--module', 'commonjs', '--skipLibCheck', ...files], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return '';
  } catch (err) {
    return (err as { stdout: string }).stdout;
  }
}

describe('openapi-typescript', () => {
  it('generates types from the document (the very types of functions/sdk/api-types.d.ts), and real answers compile against them', () => {
    // Prepare: answers recorded by the contract test (RTS_RECORD_API_FIXTURES=1), as object literals (excess properties refused)
    const fixtures = JSON.parse(readFileSync(FIXTURES, 'utf8')) as Record<string, unknown[]>;
    const answers = Object.entries(fixtures).flatMap(([name, bodies]) =>
      bodies.map((body, i) => `export const ${name}${i}: components['schemas']['${name}'] = ${JSON.stringify(body)};`),
    );
    const wrong = [
      `export const badStatus: components['schemas']['RunQueued'] = { ...${JSON.stringify(fixtures.RunQueued[0])}, status: 'running' };`,
      `export const undocumented: components['schemas']['Health'] = { status: 'ok', uptime: 1 };`,
    ];

    withDocFile(openApiDocument(routes), (doc, dir) => {
      // Act
      openApiTool('types', doc, join(dir, 'api.ts'), '--check-sdk'); // throws when api-types.d.ts is out of date
      writeFileSync(join(dir, 'answers.ts'), [`import type { components } from './api';`, ...answers].join('\n'));
      writeFileSync(join(dir, 'wrong.ts'), [`import type { components } from './api';`, ...wrong].join('\n'));
      const diagnostics = tsc([join(dir, 'answers.ts'), join(dir, 'wrong.ts')]);

      // Assess
      expect(Object.keys(fixtures).length).toBeGreaterThanOrEqual(28);
      expect(diagnostics.split('\n').filter((l) => l.includes('answers.ts'))).toEqual([]);
      expect(diagnostics).toMatch(/wrong\.ts\(2,.*'"running"' is not assignable/);
      expect(diagnostics).toMatch(/wrong\.ts\(3,.*'uptime' does not exist/);
    });
  }, 120_000);

  it('checks with tsc that the views fit the response schemas and the SDK types match the document', () => {
    expect(viewsFitSchemas.every(Boolean) && sdkMatchesDocument.every(Boolean)).toBe(true);
  });
});
