// Types from the document: packages/sdk/src/generated/api.ts is openapi-typescript's output for the current document
// (npm run openapi:types), and real API answers compile against it; and tsc checks, in this file, that the views return
// what the response schemas document.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { z } from 'zod';
import type { campaignSchema, evalSetSchema } from '../../../../functions/core/campaigns/response-schemas';
import type { getCampaign, getEvalSet } from '../../../../functions/core/campaigns/service';
import type {
  ciBatchListItemSchema,
  ciBatchSchema,
  ciRunSchema,
  ciScenarioSchema,
  ciSubmissionSchema,
} from '../../../../functions/core/ci/response-schemas';
import type { submitCiRun } from '../../../../functions/core/ci/service';
import type { batchListingView, getCiBatch, getCiRun, scenarioView } from '../../../../functions/core/ci/views';
import type {
  packQueuedSchema,
  runAttemptSchema,
  runAttemptsSchema,
  runDetailSchema,
  runQueuedSchema,
  runSchema,
  securityEventsSchema,
} from '../../../../functions/core/runs/response-schemas';
import type { createRunPack } from '../../../../functions/core/runs/pack';
import type { createReplayRun, runView } from '../../../../functions/core/runs/service';
import type { getRunAttempt, getRunAttemptsPage } from '../../../../functions/core/runs/attempt-view';
import type { getRunDetail, getSecurityEvents } from '../../../../functions/core/runs/views';
import type { traceCreatedSchema, traceSchema, traceSummarySchema } from '../../../../functions/core/traces/response-schemas';
import type { TraceSummary } from '../../../../functions/core/traces/schema';
import type { getTrace, traceCreatedView } from '../../../../functions/core/traces/service';
import type { deliveryQueuedSchema, deliverySchema, webhookCreatedSchema, webhookSchema } from '../../../../functions/core/webhooks/response-schemas';
import type { DeliveryLogEntry } from '../../../../functions/core/webhooks/schema';
import type { createWebhook, getWebhook } from '../../../../functions/core/webhooks/service';
import type { resendDelivery } from '../../../../functions/core/webhooks/recovery';
import { openApiTool } from '../../../helpers/openapi';

const ROOT = join(__dirname, '..', '..', '..', '..');
const FIXTURES = join(ROOT, 'test', 'fixtures', 'api-answers.json');
const GENERATED = join(ROOT, 'packages', 'sdk', 'src', 'generated', 'api');
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

type Out<F extends (...args: never[]) => unknown> = Awaited<ReturnType<F>>;
/** true when every A is a B: `const x: Fits<A, B> = true` does not compile otherwise. */
type Fits<A, B> = [A] extends [B] ? true : false;

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

describe("the SDK's generated types (packages/sdk/src/generated/api.ts)", () => {
  it("are openapi-typescript's output for the current document (npm run openapi:types rewrites them)", () => {
    expect(() => openApiTool('sdk-types', '--check')).not.toThrow();
  }, 120_000);

  it('accept every recorded API answer, and refuse a wrong value or an undocumented field', () => {
    // Prepare: answers recorded by the contract test (RTS_RECORD_API_FIXTURES=1), as object literals (excess properties refused)
    const fixtures = JSON.parse(readFileSync(FIXTURES, 'utf8')) as Record<string, unknown[]>;
    const answers = Object.entries(fixtures).flatMap(([name, bodies]) =>
      bodies.map((body, i) => `export const ${name}${i}: components['schemas']['${name}'] = ${JSON.stringify(body)};`),
    );
    const wrong = [
      `export const badStatus: components['schemas']['RunQueued'] = { ...${JSON.stringify(fixtures.RunQueued[0])}, status: 'running' };`,
      `export const undocumented: components['schemas']['Health'] = { status: 'ok', uptime: 1 };`,
    ];
    const dir = mkdtempSync(join(tmpdir(), 'rts-openapi-types-'));
    try {
      const header = `import type { components } from ${JSON.stringify(GENERATED)};`;
      writeFileSync(join(dir, 'answers.ts'), [header, ...answers].join('\n'));
      writeFileSync(join(dir, 'wrong.ts'), [header, ...wrong].join('\n'));

      // Act
      const diagnostics = tsc([join(dir, 'answers.ts'), join(dir, 'wrong.ts')]);

      // Assess
      expect(Object.keys(fixtures).length).toBeGreaterThanOrEqual(28);
      expect(diagnostics.split('\n').filter((l) => l.includes('answers.ts'))).toEqual([]);
      expect(diagnostics).toMatch(/wrong\.ts\(2,.*'"running"' is not assignable/);
      expect(diagnostics).toMatch(/wrong\.ts\(3,.*'uptime' does not exist/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('the response schemas', () => {
  it('fit what the views return (checked by tsc in this file)', () => {
    expect(viewsFitSchemas.every(Boolean)).toBe(true);
  });
});
