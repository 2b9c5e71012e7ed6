// The API client the CLI uses: the @rts/sdk package's sources (packages/sdk), the one copy of the code.
export * from '../../packages/sdk/src/index';
