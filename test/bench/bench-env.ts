// Environment for benchmarks, imported first so it applies before any module reads it.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
process.env.POWERTOOLS_LOG_LEVEL ??= 'SILENT';
process.env.RTS_ACCESS_LOG = 'false';
