// An instrumented app for test/integration/otlp-exporters.test.ts: the official OpenTelemetry JS SDK and OTLP exporters
// (JSON and protobuf) record GenAI agent runs and export them. It runs in a process of its own because the exporters
// load node:http with a dynamic import(), which jest's module sandbox refuses. Usage: tsx otlp-exporter-app.ts '<json>'
// with a list of scenarios; prints one JSON line per scenario with the OTel trace ids it recorded.
import { ROOT_CONTEXT, SpanKind, trace, type Tracer } from '@opentelemetry/api';
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtoExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  SimpleSpanProcessor,
  type ReadableSpan,
  type SpanExporter,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';

export type Encoding = 'json' | 'protobuf';
/** Messages as span attributes (current semconv), as span events, or as OpenLLMetry's indexed attributes (40+ a span). */
export type Form = 'attributes' | 'events' | 'indexed';

export interface Target {
  url: string;
  apiKey: string;
  projectId: string;
}

export interface Scenario {
  encoding: Encoding;
  gzip: boolean;
  form: Form;
  conversation: string;
  /** A span per export (SimpleSpanProcessor), or batches of at most this many spans (BatchSpanProcessor). */
  batch: 'simple' | number;
  /** Where to export; absent: OTEL_EXPORTER_OTLP_ENDPOINT / _HEADERS / _COMPRESSION configure the exporter. */
  target?: Target;
  /** Once everything is exported, export all the spans again in one request with this encoding. */
  resend?: Encoding;
}

export interface Recorded {
  traceId: string;
  healthTraceId: string;
  /** The export result code of the resend (0 success). */
  resendCode?: number;
}

type ExporterConfig = NonNullable<ConstructorParameters<typeof JsonExporter>[0]>;

/** An exporter configured in code; without `target`, from the OTEL_EXPORTER_OTLP_* environment variables alone. */
function exporter(encoding: Encoding, gzip: boolean, target?: Target): SpanExporter {
  const config: ExporterConfig = target
    ? {
        url: target.url,
        headers: { 'x-api-key': target.apiKey, 'x-project-id': target.projectId },
        compression: (gzip ? 'gzip' : 'none') as ExporterConfig['compression'],
      }
    : {};
  return encoding === 'json' ? new JsonExporter(config) : new ProtoExporter(config);
}

function provider(processor: SpanProcessor) {
  const p = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'support-service', 'service.version': '3.1.0' }),
    spanProcessors: [processor],
  });
  return { tracer: p.getTracer('rts-test', '1.0.0'), shutdown: () => p.shutdown() };
}

export const SYSTEM = 'You are a support agent for Acme.';
export const USER = 'Where is my order 1234?';
export const FINAL = 'Order 1234 was delivered; the total was $42.50.';
export const T0 = Date.UTC(2026, 10, 21, 9, 0, 0);
export const CALL = { id: 'call_1', name: 'lookup_order', arguments: { order_id: '1234' } };
export const RESULT = { status: 'delivered', total: 42.5 };

/** Attributes an instrumented app adds beside the messages (request options, usage, its own), up to `n` of them. */
function padding(n: number): Record<string, string | number | boolean> {
  return Object.fromEntries(
    Array.from({ length: n }, (_, i) => [`app.request.option_${String(i).padStart(2, '0')}`, i % 3 === 0 ? i : `value ${i}`]),
  );
}

/** OpenLLMetry's attribute form: `gen_ai.prompt.N.*` in, `gen_ai.completion.0.*` out, model and usage beside them. */
function indexedAttributes(prompt: { role: string; content: string; call?: boolean; toolCallId?: string }[], completion: Record<string, string>) {
  const attrs: Record<string, string | number | boolean> = {
    'gen_ai.system': 'openai',
    'llm.request.type': 'chat',
    'gen_ai.response.model': 'gpt-4o-mini-2024-07-18',
    'gen_ai.usage.prompt_tokens': 182,
    'gen_ai.usage.completion_tokens': 14,
    'llm.usage.total_tokens': 196,
    'gen_ai.request.temperature': 0.2,
    'llm.is_streaming': false,
  };
  prompt.forEach((m, i) => {
    attrs[`gen_ai.prompt.${i}.role`] = m.role;
    attrs[`gen_ai.prompt.${i}.content`] = m.content;
    if (m.call) {
      attrs[`gen_ai.prompt.${i}.tool_calls.0.id`] = CALL.id;
      attrs[`gen_ai.prompt.${i}.tool_calls.0.name`] = CALL.name;
      attrs[`gen_ai.prompt.${i}.tool_calls.0.arguments`] = JSON.stringify(CALL.arguments);
    }
    if (m.toolCallId) attrs[`gen_ai.prompt.${i}.tool_call_id`] = m.toolCallId;
  });
  for (const [k, v] of Object.entries(completion)) attrs[`gen_ai.completion.0.${k}`] = v;
  // The messages end up past the 20th attribute, among 42 or more: what real exporters send.
  return { ...padding(Math.max(0, 42 - Object.keys(attrs).length - 3)), ...attrs };
}

/**
 * One agent run as an instrumented app records it: an invoke_agent span around two chat spans and an execute_tool span,
 * whose HTTP client span is no agent traffic; the chat spans carry their messages as attributes or as events.
 */
function recordAgentRun(tracer: Tracer, form: Form, conversation: string): string {
  const at = (ms: number) => T0 + ms;
  const root = tracer.startSpan(
    'invoke_agent support-bot',
    {
      startTime: at(0),
      attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'support-bot', 'gen_ai.conversation.id': conversation },
    },
    ROOT_CONTEXT,
  );
  const ctx = trace.setSpan(ROOT_CONTEXT, root);
  const chatAttrs = { 'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': 'openai', 'gen_ai.request.model': 'gpt-4o-mini' };
  const toolCallPart = { type: 'tool_call', ...CALL };

  const chat1 = tracer.startSpan('chat gpt-4o-mini', { kind: SpanKind.CLIENT, startTime: at(10), attributes: chatAttrs }, ctx);
  if (form === 'indexed') {
    chat1.setAttributes(
      indexedAttributes(
        [
          { role: 'system', content: SYSTEM },
          { role: 'user', content: USER },
        ],
        {
          role: 'assistant',
          finish_reason: 'tool_calls',
          'tool_calls.0.id': CALL.id,
          'tool_calls.0.name': CALL.name,
          'tool_calls.0.arguments': JSON.stringify(CALL.arguments),
        },
      ),
    );
  } else if (form === 'attributes') {
    chat1.setAttributes({
      'gen_ai.input.messages': JSON.stringify([
        { role: 'system', parts: [{ type: 'text', content: SYSTEM }] },
        { role: 'user', parts: [{ type: 'text', content: USER }] },
      ]),
      'gen_ai.output.messages': JSON.stringify([{ role: 'assistant', parts: [toolCallPart], finish_reason: 'tool_call' }]),
    });
  } else {
    chat1.addEvent('gen_ai.system.message', { 'gen_ai.system': 'openai', content: SYSTEM }, at(10));
    chat1.addEvent('gen_ai.user.message', { 'gen_ai.system': 'openai', content: USER }, at(11));
    const message = {
      role: 'assistant',
      tool_calls: [{ id: CALL.id, type: 'function', function: { name: CALL.name, arguments: JSON.stringify(CALL.arguments) } }],
    };
    chat1.addEvent('gen_ai.choice', { 'gen_ai.system': 'openai', index: 0, finish_reason: 'tool_calls', message: JSON.stringify(message) }, at(400));
  }
  chat1.end(at(400));

  const tool = tracer.startSpan(
    'execute_tool lookup_order',
    {
      startTime: at(410),
      attributes: {
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': CALL.name,
        'gen_ai.tool.call.id': CALL.id,
        'gen_ai.tool.call.arguments': JSON.stringify(CALL.arguments),
        'gen_ai.tool.call.result': JSON.stringify(RESULT),
      },
    },
    ctx,
  );
  const http = tracer.startSpan(
    'GET /orders/1234',
    { kind: SpanKind.CLIENT, startTime: at(415), attributes: { 'http.request.method': 'GET', 'url.full': 'http://orders.internal/orders/1234' } },
    trace.setSpan(ctx, tool),
  );
  http.setAttribute('http.response.status_code', 200);
  http.end(at(520));
  tool.end(at(530));

  const chat2 = tracer.startSpan('chat gpt-4o-mini', { kind: SpanKind.CLIENT, startTime: at(540), attributes: chatAttrs }, ctx);
  if (form === 'indexed') {
    chat2.setAttributes(
      indexedAttributes(
        [
          { role: 'system', content: SYSTEM },
          { role: 'user', content: USER },
          { role: 'assistant', content: '', call: true },
          { role: 'tool', content: JSON.stringify(RESULT), toolCallId: CALL.id },
        ],
        { role: 'assistant', content: FINAL, finish_reason: 'stop' },
      ),
    );
  } else if (form === 'attributes') {
    chat2.setAttributes({
      'gen_ai.input.messages': JSON.stringify([
        { role: 'system', parts: [{ type: 'text', content: SYSTEM }] },
        { role: 'user', parts: [{ type: 'text', content: USER }] },
        { role: 'assistant', parts: [toolCallPart] },
        { role: 'tool', parts: [{ type: 'tool_call_response', id: CALL.id, response: RESULT }] },
      ]),
      'gen_ai.output.messages': JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: FINAL }], finish_reason: 'stop' }]),
    });
  } else {
    chat2.addEvent('gen_ai.system.message', { content: SYSTEM }, at(540));
    chat2.addEvent('gen_ai.user.message', { content: USER }, at(541));
    chat2.addEvent(
      'gen_ai.assistant.message',
      { tool_calls: JSON.stringify([{ id: CALL.id, type: 'function', function: { name: CALL.name, arguments: '{"order_id":"1234"}' } }]) },
      at(542),
    );
    chat2.addEvent('gen_ai.tool.message', { id: CALL.id, content: JSON.stringify(RESULT) }, at(543));
    chat2.addEvent('gen_ai.choice', { index: 0, finish_reason: 'stop', message: JSON.stringify({ role: 'assistant', content: FINAL }) }, at(900));
  }
  chat2.end(at(900));
  root.end(at(910));
  return root.spanContext().traceId;
}

/** Ordinary traffic of the same app: a health check, a trace of its own without any GenAI attribute. */
function recordHealthCheck(tracer: Tracer): string {
  const span = tracer.startSpan(
    'GET /health',
    { kind: SpanKind.SERVER, startTime: T0, attributes: { 'http.request.method': 'GET', 'http.route': '/health' } },
    ROOT_CONTEXT,
  );
  span.end(T0 + 2);
  return span.spanContext().traceId;
}

/** Records one agent run and one health check under the scenario's processor and exporter, and flushes them. */
export async function runScenario(s: Scenario): Promise<Recorded> {
  const kept: ReadableSpan[] = [];
  const sink = exporter(s.encoding, s.gzip, s.target);
  const keeping: SpanExporter = {
    export: (spans, done) => {
      kept.push(...spans);
      sink.export(spans, done);
    },
    shutdown: () => sink.shutdown(),
  };
  const processor =
    s.batch === 'simple'
      ? new SimpleSpanProcessor(keeping)
      : new BatchSpanProcessor(keeping, { maxExportBatchSize: s.batch, scheduledDelayMillis: 10 });
  const { tracer, shutdown } = provider(processor);
  const traceId = recordAgentRun(tracer, s.form, s.conversation);
  const healthTraceId = recordHealthCheck(tracer);
  await shutdown();
  if (!s.resend) return { traceId, healthTraceId };
  const again = exporter(s.resend, s.gzip, s.target);
  const resendCode = await new Promise<number>((resolve) => again.export(kept, (r) => resolve(r.code)));
  await again.shutdown();
  return { traceId, healthTraceId, resendCode };
}

if (require.main === module) {
  void (async () => {
    for (const scenario of JSON.parse(process.argv[2]) as Scenario[]) {
      process.stdout.write(`${JSON.stringify(await runScenario(scenario))}\n`);
    }
  })().then(
    () => process.exit(0),
    (err) => {
      process.stderr.write(`${(err as Error).stack}\n`);
      process.exit(1);
    },
  );
}
