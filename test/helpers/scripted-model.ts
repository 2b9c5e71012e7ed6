// A scripted OpenAI-compatible model server for tests: POST /v1/chat/completions answered by a script that reads the
// conversation it is sent and decides the next tool calls or the final answer, as JSON or, when the client asks for a
// stream, as Server-Sent Events chunks. Keeps every request, so a test can tell what the model was shown.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A Chat Completions message as clients send it (content a string or an array of text parts). */
export interface ChatMessage {
  role: string;
  content?: string | Array<{ type: string; text?: string }> | null;
  tool_calls?: Array<{ id: string; type?: string; function: { name: string; arguments: string } }>;
  tool_call_id?: string;
}

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  tools?: Array<{ type: string; function: { name: string; description?: string; parameters?: unknown } }>;
  stream?: boolean;
}

/** A tool result the model was shown: the call's tool and the tool message's text. */
export interface SeenResult {
  tool_call_id: string;
  name: string;
  text: string;
}

/** What the model does next: call tools (run in parallel by the framework) or answer. */
export type ModelTurn = { calls: Array<{ name: string; arguments: Record<string, unknown> }> } | { answer: string };

/** Decides the next turn from the request; `results` are the tool results of its conversation, in order. */
export type ModelScript = (results: SeenResult[], request: ChatRequest) => ModelTurn;

export interface ScriptedModel {
  /** The OpenAI-style base URL, ending in /v1. */
  baseURL: string;
  /** The script answering the next requests (tests swap it between campaigns). */
  script: ModelScript;
  requests: ChatRequest[];
  /** Every tool result any request showed the model, once per tool call id. */
  seen(): SeenResult[];
  /** Forgets the requests seen so far. */
  reset(): void;
  close(): Promise<void>;
}

/** The text of a message's content, whichever shape the client sent. */
export function textOf(content: ChatMessage['content']): string {
  if (typeof content === 'string') return content;
  return (content ?? []).map((part) => part.text ?? '').join('');
}

/** The tool results of a conversation in order, each with the name of the tool its assistant message called. */
export function resultsOf(messages: ChatMessage[]): SeenResult[] {
  const names = new Map<string, string>();
  const results: SeenResult[] = [];
  for (const m of messages) {
    for (const call of m.tool_calls ?? []) names.set(call.id, call.function.name);
    if (m.role === 'tool' && m.tool_call_id !== undefined) {
      results.push({ tool_call_id: m.tool_call_id, name: names.get(m.tool_call_id) ?? '?', text: textOf(m.content) });
    }
  }
  return results;
}

export async function startScriptedModel(script: ModelScript): Promise<ScriptedModel> {
  const requests: ChatRequest[] = [];
  let calls = 0;
  const model: Omit<ScriptedModel, 'baseURL' | 'close'> = {
    script,
    requests,
    seen: () => [...new Map(requests.flatMap((r) => resultsOf(r.messages)).map((s) => [s.tool_call_id, s])).values()],
    reset: () => void requests.splice(0),
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
        res.writeHead(404, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `no route ${req.method} ${req.url}`, type: 'invalid_request_error' } }));
        return;
      }
      const request = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChatRequest;
      requests.push(request);
      let turn: ModelTurn;
      try {
        turn = model.script(resultsOf(request.messages), request);
      } catch (err) {
        res.writeHead(500, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ error: { message: String(err), type: 'server_error' } }));
        return;
      }
      const message =
        'answer' in turn
          ? { role: 'assistant', content: turn.answer }
          : {
              role: 'assistant',
              content: null,
              tool_calls: turn.calls.map((c) => ({
                id: `call_${++calls}`,
                type: 'function',
                function: { name: c.name, arguments: JSON.stringify(c.arguments) },
              })),
            };
      const finish = 'answer' in turn ? 'stop' : 'tool_calls';
      const head = { id: `chatcmpl_${requests.length}`, created: Math.floor(Date.now() / 1000), model: request.model };
      const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
      if (!request.stream) {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ ...head, object: 'chat.completion', choices: [{ index: 0, message, finish_reason: finish }], usage }));
        return;
      }
      res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
      const chunk = (choices: unknown[], extra: object = {}) =>
        res.write(`data: ${JSON.stringify({ ...head, object: 'chat.completion.chunk', choices, ...extra })}\n\n`);
      const delta = message.tool_calls
        ? { role: 'assistant', content: null, tool_calls: message.tool_calls.map((c, index) => ({ index, ...c })) }
        : { role: 'assistant', content: message.content };
      chunk([{ index: 0, delta, finish_reason: null }]);
      chunk([{ index: 0, delta: {}, finish_reason: finish }]);
      chunk([], { usage });
      res.end('data: [DONE]\n\n');
    });
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const { port } = server.address() as AddressInfo;
  return Object.assign(model, {
    baseURL: `http://127.0.0.1:${port}/v1`,
    close: () => new Promise<void>((closed) => server.close(() => closed())),
  });
}
