// Vercel AI SDK runs unchanged against rts over MCP: examples/mcp/vercel-ai.ts in a process of its own, a scripted model.
import { describeFramework } from '../helpers/mcp-framework-suite';

describeFramework('Vercel AI SDK (ai, @ai-sdk/mcp, @ai-sdk/openai-compatible)', 'vercel-ai');
