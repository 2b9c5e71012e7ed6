// Jest setup for every test file: quiet logs (RTS_TEST_LOGS=1 shows them), no EMF metric lines, no X-Ray, and no SDK
// Node-version notice. Tests of metrics and tracing turn them on for themselves.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
if (!process.env.RTS_TEST_LOGS) process.env.POWERTOOLS_LOG_LEVEL = 'SILENT';
process.env.POWERTOOLS_METRICS_DISABLED = 'true';
process.env.POWERTOOLS_TRACE_ENABLED = 'false';
