// Webhook signature verification, from the @rts/sdk package's sources (packages/sdk/src/verify.ts; `@rts/sdk/verify`).
export * from '../../packages/sdk/src/verify';
