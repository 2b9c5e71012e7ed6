// CI gating's public API: submissions and views, run-packs, the decision math, and the replay executor's onTerminal hook.
export { submitCiRun, getCiRun, getCiBatch, type BatchSubmitted, type SingleRunSubmitted } from './service';
export { createRunPack, type PackQueued } from './pack';
export { ciOnTerminal, decisionEventId, DECISION_CLAIM_LEASE_MS, type CiHookDeps } from './aggregate';
export { aggregateBatch, decideRun, missedThresholds, coveragePct, MAX_BATCH_REASONS, type RunVerdict } from './decision';
export type { BatchAggregate, BatchMarker, BatchStatus, CiBatch, CiRunState, RunPack } from './types';
