// OpenAI Agents SDK runs unchanged against rts over MCP: examples/mcp/openai-agents.ts in a process of its own, a scripted model.
import { describeFramework } from '../helpers/mcp-framework-suite';

describeFramework('OpenAI Agents SDK (@openai/agents)', 'openai-agents');
