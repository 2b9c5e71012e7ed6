// Limits (docs/api.md#limits) that code outside the schemas needs (kept free of zod so read paths stay small).

/** Traces an eval-set pool may hold. */
export const EVAL_SET_MAX = 1000;

/** Attempts one run may plan: (baseline + mutations) x repeats. */
export const MAX_ATTEMPTS_PER_RUN = 200;
