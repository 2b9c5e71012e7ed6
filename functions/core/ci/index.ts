// CI gating's public API: submissions and views, run-packs, the decision math, and the replay executor's onTerminal hook.
export { submitCiRun, getCiRun, getCiBatch, type BatchSubmitted, type SingleRunSubmitted } from './service';
export { createRunPack, type PackQueued } from './pack';
export { ciOnTerminal, decisionEventId, type CiHookDeps } from './aggregate';
export { aggregateBatch, decideRun, missedThresholds, coveragePct, DEFAULT_THRESHOLDS, MAX_BATCH_REASONS, type RunVerdict } from './decision';
export type { BatchAggregate, BatchMarker, BatchStatus, CiBatch, CiRunState, RunPack } from './types';
