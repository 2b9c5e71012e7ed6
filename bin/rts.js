#!/usr/bin/env node
// The `rts` executable: registers tsx so the TypeScript CLI runs without a build step.
// The SDK's notice about Node 22 is noise for a local tool on Node 20 (Lambda runs Node 22).
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
// Locally the service logs warnings and errors only (POWERTOOLS_LOG_LEVEL=INFO shows every replay).
process.env.POWERTOOLS_LOG_LEVEL ??= 'WARN';
require('tsx/cjs');
require('./rts.ts');
