// LangGraph.js runs unchanged against rts over MCP: examples/mcp/langgraph.ts in a process of its own, a scripted model.
import { describeFramework } from '../helpers/mcp-framework-suite';

describeFramework('LangGraph.js (@langchain/langgraph, @langchain/mcp-adapters, @langchain/openai)', 'langgraph');
