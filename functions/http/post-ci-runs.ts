// POST /v1/ci/runs: a CI batch over the campaign's eval-set, or a single CI run when the pool is empty
// (docs/ci.md#submitting-a-ci-run).
import '../shared/with-queue';
import '../shared/with-bus';
import { ciRunRequestSchema } from '../core/ci/schema';
import { submitCiRun } from '../core/ci/service';
import { route } from '../shared/http';

export const handler = route({ name: 'POST /v1/ci/runs', body: ciRunRequestSchema }, async ({ body, deps, projectId }) => ({
  status: 202,
  body: await submitCiRun(deps, projectId, body),
}));
