// What `rts ci run` reads from the CI environment: an Idempotency-Key per job, the commit, branch and pipeline, the base branch.
import { createHash } from 'node:crypto';

/**
 * The Idempotency-Key of a submission, so a retried CI step gets the run it already started: RTS_IDEMPOTENCY_KEY when
 * set; on GitHub Actions `gh:<repository>:<run id>:<run attempt>:<job>:<campaign>`; on GitLab CI
 * `gl:<project>:<pipeline id>:<job id>:<campaign>` (`:<trace>` appended for single runs); else none. A `variant`
 * (e.g. `no-baseline` for a resubmission without the default baseline) is appended, so it never meets the first answer.
 */
export function idempotencyKeyFromEnv(env: NodeJS.ProcessEnv, campaign: string, trace?: string, variant?: string): string | undefined {
  const target = trace ? `${campaign}:${trace}` : campaign;
  let key: string | undefined;
  if (env.RTS_IDEMPOTENCY_KEY) key = env.RTS_IDEMPOTENCY_KEY;
  else if (env.GITHUB_RUN_ID) {
    key = `gh:${env.GITHUB_REPOSITORY ?? ''}:${env.GITHUB_RUN_ID}:${env.GITHUB_RUN_ATTEMPT ?? '1'}:${env.GITHUB_JOB ?? ''}:${target}`;
  } else if (env.CI_PIPELINE_ID) {
    key = `gl:${env.CI_PROJECT_ID ?? env.CI_PROJECT_PATH ?? ''}:${env.CI_PIPELINE_ID}:${env.CI_JOB_ID ?? ''}:${target}`;
  }
  if (key && variant) key = `${key}:${variant}`;
  // The API takes 1-255 characters; a longer derived key is replaced by its digest (still stable across retries).
  if (key && key.length > 255) key = `sha256:${createHash('sha256').update(key).digest('hex')}`;
  return key;
}

/** Commit, branch and pipeline URL from GitHub Actions or GitLab CI variables, when present. */
export function ciMetadataFromEnv(env: NodeJS.ProcessEnv): { commit?: string; branch?: string; pipeline_url?: string } {
  const meta: { commit?: string; branch?: string; pipeline_url?: string } = {};
  if (env.GITHUB_SHA || env.GITHUB_RUN_ID) {
    if (env.GITHUB_SHA) meta.commit = env.GITHUB_SHA;
    const branch = env.GITHUB_HEAD_REF || env.GITHUB_REF_NAME;
    if (branch) meta.branch = branch;
    if (env.GITHUB_REPOSITORY && env.GITHUB_RUN_ID) {
      meta.pipeline_url = `${env.GITHUB_SERVER_URL ?? 'https://github.com'}/${env.GITHUB_REPOSITORY}/actions/runs/${env.GITHUB_RUN_ID}`;
    }
  } else if (env.CI_COMMIT_SHA || env.CI_PIPELINE_ID) {
    if (env.CI_COMMIT_SHA) meta.commit = env.CI_COMMIT_SHA;
    const branch = env.CI_COMMIT_REF_NAME || env.CI_MERGE_REQUEST_SOURCE_BRANCH_NAME;
    if (branch) meta.branch = branch;
    if (env.CI_PIPELINE_URL) meta.pipeline_url = env.CI_PIPELINE_URL;
  }
  // Stay within the API's limits (commit 200, branch 500, pipeline_url 2048 characters).
  if (meta.commit) meta.commit = meta.commit.slice(0, 200);
  if (meta.branch) meta.branch = meta.branch.slice(0, 500);
  if (meta.pipeline_url && meta.pipeline_url.length > 2048) delete meta.pipeline_url;
  return meta;
}

/**
 * The pull request's base branch, the default baseline of a comparison: GITHUB_BASE_REF on GitHub Actions (set on
 * pull_request events only), CI_MERGE_REQUEST_TARGET_BRANCH_NAME in GitLab merge request pipelines; undefined when
 * neither names one (a push, a schedule, outside CI).
 */
export function baselineBranchFromEnv(env: NodeJS.ProcessEnv): string | undefined {
  const branch = [env.GITHUB_BASE_REF, env.CI_MERGE_REQUEST_TARGET_BRANCH_NAME].map((b) => (b ?? '').trim()).find((b) => b !== '');
  return branch ? branch.slice(0, 500) : undefined;
}
