// Jest setup for every test file: quiet logs (RTS_TEST_LOGS=1 shows them) and no SDK Node-version notice.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
if (!process.env.RTS_TEST_LOGS) process.env.POWERTOOLS_LOG_LEVEL = 'SILENT';
