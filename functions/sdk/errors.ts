// The SDK's errors and the checks behind them, from the @rts/sdk package's sources (packages/sdk/src/errors.ts).
export * from '../../packages/sdk/src/errors';
