// The AWS credential provider of the deployed functions. In Lambda the execution role's credentials are always in the
// environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN), so the bundles replace the SDK's default
// chain (@aws-sdk/credential-provider-node: SSO, shared ini files, processes, web identity, container and instance
// metadata) with the environment provider alone: lib/constructs/bundling.ts aliases that package to this module. The
// CLI, local mode and tests run from source and keep the whole chain.
import { fromEnv } from '@aws-sdk/credential-provider-env';

/** What the SDK clients call to build their default credential provider: here, the environment's credentials. */
export const defaultProvider = (init?: Parameters<typeof fromEnv>[0]) => fromEnv(init);
