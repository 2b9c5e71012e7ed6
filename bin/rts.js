#!/usr/bin/env node
// The `rts` executable: registers tsx so the TypeScript CLI runs without a build step.
require('tsx/cjs');
require('./rts.ts');
