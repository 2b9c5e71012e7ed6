// POST /v1/ci/runs: a CI batch over the campaign's eval-set, or a single CI run when the pool is empty
// (docs/ci.md#submitting-a-ci-run).
import { POST_CI_RUNS } from '../../lib/routes';
import { ciRunRequestSchema } from '../core/ci/schema';
import { submitCiRun } from '../core/ci/service';
import { route } from '../http-chain/route';

export const handler = route(POST_CI_RUNS, { body: ciRunRequestSchema }, async ({ body, deps, projectId }) => ({
  status: 202,
  body: await submitCiRun(deps, projectId, body),
}));
