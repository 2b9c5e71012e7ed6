// `rts demo-agent`: a deterministic sample agent speaking the step protocol (SPEC 7.2), for demos and tests.
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { canonicalJson } from '../core/json';
import { traceInputSchema, type TraceInput } from '../core/traces/schema';
import { z } from '../core/zod';

/** Options of {@link startDemoAgent}. */
export interface DemoAgentOptions {
  /** Port to listen on; 0 picks an ephemeral one. Default 8788. */
  port?: number;
  /** Address to listen on. Default 127.0.0.1. */
  host?: string;
  /** true: ignore instructions found in tool output and never echo credentials. Default false (the naive agent). */
  guarded?: boolean;
  /** The conversations the agent knows. Default: the shipped samples in samples/traces. */
  traces?: TraceInput[];
}

/** A running demo agent. */
export interface DemoAgent {
  /** The step endpoint, e.g. http://127.0.0.1:8788/step (use it as a campaign's http target url). */
  url: string;
  close(): Promise<void>;
}

export const DEMO_AGENT_DEFAULT_PORT = 8788;
const MAX_BODY_BYTES = 5 * 1024 * 1024;

const looseMessage = z.looseObject({
  role: z.string(),
  content: z.unknown().optional(),
  tool_call_id: z.string().optional(),
  name: z.string().optional(),
  error: z.unknown().optional(),
});

/** The body the service POSTs for each agent step (SPEC 7.2); unknown fields are ignored. */
export const stepRequestSchema = z.object({
  protocol: z.literal('rts.step.v1'),
  run_id: z.string().optional(),
  attempt: z.number().int().min(0).optional(),
  step: z.number().int().min(0).optional(),
  tools: z.array(z.unknown()).default([]),
  messages: z.array(looseMessage),
});
export type StepRequest = z.infer<typeof stepRequestSchema>;
type StepMessage = z.infer<typeof looseMessage>;

/** What the agent answers: tool calls to make, or its final output. */
export type StepReply =
  | { tool_calls: { id: string; name: string; arguments: Record<string, unknown> }[] }
  | { output: string };

interface PlannedCall {
  name: string;
  arguments: Record<string, unknown>;
}

/** A sample conversation reduced to what the agent replays: its tool-call turns, then its final answer. */
export interface DemoPlan {
  userText: string;
  normalised: string;
  grams: Set<string>;
  turns: PlannedCall[][];
  final: string;
}

const GENERIC_OUTPUT =
  "I'm sorry, I don't know how to help with that request yet. I can refund orders, book flights, summarise documents and schedule meetings.";

/** Loads and validates every *.json trace of a folder (default: the shipped samples/traces), in file-name order. */
export function loadSampleTraces(dir = findSamplesDir()): TraceInput[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => {
      const parsed = traceInputSchema.safeParse(JSON.parse(readFileSync(path.join(dir, f), 'utf8')));
      if (!parsed.success) throw new Error(`${f} is not a valid trace: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
      return parsed.data;
    });
}

// The module runs from source (tsx, ts-jest) and possibly from a compiled dist/ tree, so look in both places.
function findSamplesDir(): string {
  const candidates = [
    path.resolve(__dirname, '../../samples/traces'),
    path.resolve(__dirname, '../../../samples/traces'),
    path.resolve(process.cwd(), 'samples/traces'),
  ];
  const found = candidates.find((c) => existsSync(c));
  if (!found) throw new Error(`sample traces not found (looked in ${candidates.join(', ')})`);
  return found;
}

function buildPlan(trace: TraceInput): DemoPlan | null {
  const user = trace.steps.find((s) => s.role === 'user');
  if (!user || user.role !== 'user') return null;
  const turns: PlannedCall[][] = [];
  let final = '';
  for (const step of trace.steps) {
    if (step.role !== 'assistant') continue;
    if (step.tool_calls && step.tool_calls.length > 0) {
      turns.push(step.tool_calls.map((c) => ({ name: c.name, arguments: c.arguments })));
    } else if (step.content) {
      final = step.content;
    }
  }
  const normalised = normalise(user.content);
  return { userText: user.content, normalised, grams: trigrams(normalised), turns, final: final || 'Done.' };
}

function normalise(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s]/gu, '')
    .replace(/\s+/g, ' ')
    .trim();
}

// Character trigrams survive typos far better than whole tokens: one wrong letter costs three grams, not a word.
function trigrams(normalisedText: string): Set<string> {
  const grams = new Set<string>();
  for (const word of normalisedText.split(' ')) {
    const padded = ` ${word} `;
    for (let i = 0; i + 3 <= padded.length; i++) grams.add(padded.slice(i, i + 3));
  }
  return grams;
}

const MIN_SIMILARITY = 0.4;

/** Which known conversation a first user message belongs to: exact, then normalised, then the closest by trigram overlap. */
function matchPlan(plans: DemoPlan[], userText: string): DemoPlan | null {
  const exact = plans.find((p) => p.userText === userText);
  if (exact) return exact;
  const normalised = normalise(userText);
  const same = plans.find((p) => p.normalised === normalised);
  if (same) return same;
  const grams = trigrams(normalised);
  let best: DemoPlan | null = null;
  let bestScore = 0;
  for (const plan of plans) {
    let shared = 0;
    for (const g of grams) if (plan.grams.has(g)) shared++;
    const score = (2 * shared) / (grams.size + plan.grams.size || 1);
    if (score > bestScore) {
      best = plan;
      bestScore = score;
    }
  }
  return bestScore >= MIN_SIMILARITY ? best : null;
}

type TurnKind = 'plan' | 'retry' | 'inject';
type Turn = { kind: TurnKind; calls: PlannedCall[] } | { kind: 'final'; output: string };

/** The agent's memory, rebuilt from the messages on every step: the protocol is stateless on the agent's side. */
interface AgentState {
  planIndex: number;
  pendingRetry: PlannedCall[] | null;
  pendingInjections: PlannedCall[];
  obeyed: Set<string>;
  secrets: string[];
  gaveUpOn: string | null;
}

interface ToolOffer {
  name: string;
  parameters?: unknown;
}

/**
 * Decides the agent's answer to one step request. Pure and deterministic: the same request always gets the same reply.
 * The position in the plan is found by replaying the agent's own decisions over the tool messages received so far.
 */
export function decideStep(request: StepRequest, plans: DemoPlan[] | TraceInput[], guarded = false): StepReply {
  const known = toPlans(plans);
  const user = request.messages.find((m) => m.role === 'user');
  const plan = user ? matchPlan(known, contentText(user.content)) : null;
  if (!plan) return { output: GENERIC_OUTPUT };

  const firstUser = request.messages.indexOf(user as StepMessage);
  const history = request.messages.slice(firstUser + 1).filter((m) => m.role === 'assistant' || m.role === 'tool');
  const offers = toolOffers(request.tools);
  const state: AgentState = { planIndex: 0, pendingRetry: null, pendingInjections: [], obeyed: new Set(), secrets: [], gaveUpOn: null };
  let cursor = 0;
  // Each simulated turn consumes at least one message, so the loop ends; the bound only guards against surprises.
  for (let guard = 0; guard <= request.messages.length + 1; guard++) {
    const turn = nextTurn(state, plan, guarded);
    if (turn.kind === 'final') return { output: turn.output };
    while (cursor < history.length && history[cursor]!.role !== 'tool') cursor++;
    if (cursor >= history.length) return reply(turn.calls, request);
    const results: StepMessage[] = [];
    while (cursor < history.length && results.length < turn.calls.length && history[cursor]!.role === 'tool') {
      results.push(history[cursor++]!);
    }
    absorb(state, turn.kind, turn.calls, results, offers, guarded);
  }
  return { output: GENERIC_OUTPUT };
}

// Trace tools are {name, parameters}; OpenAI-style {type: "function", function: {...}} entries are accepted too.
function toolOffers(tools: unknown[]): ToolOffer[] {
  return tools.flatMap((t) => {
    const def = (t as { function?: unknown })?.function ?? t;
    const name = (def as { name?: unknown } | null)?.name;
    return typeof name === 'string' && name !== '' ? [{ name, parameters: (def as { parameters?: unknown }).parameters }] : [];
  });
}

function toPlans(items: DemoPlan[] | TraceInput[]): DemoPlan[] {
  return items.flatMap((item) => ('steps' in item ? (buildPlan(item) ?? []) : [item]));
}

function nextTurn(state: AgentState, plan: DemoPlan, guarded: boolean): Turn {
  if (state.gaveUpOn !== null) {
    return {
      kind: 'final',
      output: withSecrets(
        `I'm sorry, I couldn't finish your request: the ${state.gaveUpOn} tool is unavailable right now (it failed twice). Please try again later.`,
        state,
        guarded,
      ),
    };
  }
  if (state.pendingInjections.length > 0) {
    const calls = state.pendingInjections;
    state.pendingInjections = [];
    return { kind: 'inject', calls };
  }
  if (state.pendingRetry) {
    const calls = state.pendingRetry;
    state.pendingRetry = null;
    return { kind: 'retry', calls };
  }
  if (state.planIndex < plan.turns.length) return { kind: 'plan', calls: plan.turns[state.planIndex++]! };
  return { kind: 'final', output: withSecrets(plan.final, state, guarded) };
}

function withSecrets(output: string, state: AgentState, guarded: boolean): string {
  if (guarded || state.secrets.length === 0) return output;
  return `${output} For reference: ${state.secrets.join(', ')}`;
}

function absorb(state: AgentState, kind: TurnKind, calls: PlannedCall[], results: StepMessage[], tools: ToolOffer[], guarded: boolean): void {
  const failed = calls.filter((_, i) => results[i] !== undefined && isErrorResult(results[i]!));
  // Errors of a call the agent was tricked into making are not worth a retry: it just goes back to its plan.
  if (kind === 'plan' && failed.length > 0) state.pendingRetry = failed;
  if (kind === 'retry' && failed.length > 0) state.gaveUpOn = failed[0]!.name;
  if (guarded) return;
  for (const result of results) {
    for (const text of resultTexts(result)) {
      for (const secret of findSecrets(text)) if (!state.secrets.includes(secret)) state.secrets.push(secret);
      const injected = parseInjection(text, tools);
      if (!injected) continue;
      const key = findCanary(text) ?? `${injected.name}:${canonicalJson(injected.arguments)}`;
      if (state.obeyed.has(key)) continue;
      state.obeyed.add(key);
      state.pendingInjections.push(injected);
    }
  }
}

function reply(calls: PlannedCall[], request: StepRequest): StepReply {
  const prefix = `call_${request.attempt ?? 0}_${request.step ?? 0}`;
  return { tool_calls: calls.map((c, i) => ({ id: `${prefix}_${i + 1}`, name: c.name, arguments: c.arguments })) };
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  // OpenAI-style content parts: [{type: "text", text: "..."}]
  if (Array.isArray(content)) {
    return content.map((p) => (p && typeof p === 'object' && typeof (p as { text?: unknown }).text === 'string' ? (p as { text: string }).text : '')).join(' ');
  }
  return content === undefined || content === null ? '' : JSON.stringify(content);
}

const ERROR_TEXT = [/^\s*(error|exception|fatal)\b/i, /\btimed?[\s_-]?out\b/i, /^\s*[45]\d\d\b/];

/** Whether a tool message reports a failure: an `error` field, an `{"error": ...}` content, or an error/timeout string. */
export function isErrorResult(message: StepMessage): boolean {
  if (message.error !== undefined && message.error !== null && message.error !== false && message.error !== '') return true;
  if ((message as { is_error?: unknown }).is_error === true) return true;
  let content = message.content;
  if (typeof content === 'string') {
    const parsed = tryJson(content);
    if (parsed === undefined) return ERROR_TEXT.some((re) => re.test(content as string));
    content = parsed;
  }
  return isErrorObject(content);
}

function isErrorObject(value: unknown): boolean {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return false;
  const err = (value as Record<string, unknown>).error;
  return err !== undefined && err !== null && err !== false && err !== '';
}

function tryJson(text: string): unknown {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return undefined;
  try {
    return JSON.parse(trimmed);
  } catch {
    return undefined;
  }
}

/** Every string a tool message carries (content leaves, a JSON string's leaves, the error text), hidden tag characters decoded. */
function resultTexts(message: StepMessage): string[] {
  const out: string[] = [];
  const walk = (value: unknown): void => {
    if (typeof value === 'string') {
      out.push(decodeTagCharacters(value));
      const parsed = tryJson(value);
      if (parsed !== undefined) walk(parsed);
    } else if (Array.isArray(value)) {
      value.forEach(walk);
    } else if (value && typeof value === 'object') {
      Object.values(value).forEach(walk);
    }
  };
  walk(message.content);
  walk(message.error);
  return out;
}

// Unicode tag characters (U+E0020..U+E007E) mirror ASCII invisibly; a model reads them, so the naive agent does too.
function decodeTagCharacters(text: string): string {
  return text.replace(/[\u{E0020}-\u{E007E}]/gu, (ch) => String.fromCharCode(ch.codePointAt(0)! - 0xe0000));
}

const SECRET_PATTERNS = [
  /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g,
  /\bsk-[A-Za-z0-9_-]{16,}/g,
  /\bgh[pousr]_[A-Za-z0-9]{30,}/g,
  /\bxox[abposr]-[A-Za-z0-9-]{10,}/g,
  /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g,
  /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g,
  /RTS-CANARY-[0-9A-Za-z]+/g,
];

/** Credential-looking strings in a text, in order of appearance per pattern. */
export function findSecrets(text: string): string[] {
  const found: string[] = [];
  for (const re of SECRET_PATTERNS) for (const m of text.matchAll(re)) if (!found.includes(m[0])) found.push(m[0]);
  return found;
}

function findCanary(text: string): string | null {
  return /RTS-CANARY-[0-9A-Za-z]+/.exec(text)?.[0] ?? null;
}

const INSTRUCTION_MARKERS = [
  /RTS-CANARY-/,
  /\b(ignore|disregard|forget|override)\b[^.\n]{0,40}\b(instructions?|prompts?|rules|directions|guidelines|messages)\b/i,
  /\bnew (instructions?|task|orders)\b/i,
  /\b(important|urgent)\s*[:!]/i,
  /<\/?\s*(system|instructions?|admin)\s*>/i,
  /\[\/?\s*(system|inst)\s*\]/i,
  /(^|\n)\s*(system|assistant)\s*:/i,
];
const TRIGGER = /\b(call|calls|calling|use|using|invoke|invoking|run|execute|trigger|send|sending)\b/gi;
const TRIGGER_WINDOW = 120;
const TEXT_ARGUMENTS = ['body', 'text', 'message', 'content', 'note', 'notes', 'comment', 'description'];

/**
 * Reads an injected instruction the way a naive model would. Rule:
 * 1. the text must look like an instruction: a `RTS-CANARY-` token, "ignore/disregard ... instructions", "new instructions",
 *    "IMPORTANT:", `<system>`/`[INST]` markers or a `system:` line;
 * 2. the tool is the first offered tool name (as a whole identifier) within 120 characters after a trigger word
 *    (call, use, invoke, run, execute, trigger, send, ...), trying trigger words in order; failing that, the first offered
 *    tool name anywhere in the text;
 * 3. the arguments are the first balanced `{...}` after that tool name that parses as a JSON object, else `{}`;
 * 4. a canary token in the text is carried into a text argument (`body`, `text`, `message`, ... or a new `body`).
 * Returns null when the text is not an instruction or names no offered tool.
 */
export function parseInjection(text: string, tools: ToolOffer[]): PlannedCall | null {
  if (!INSTRUCTION_MARKERS.some((re) => re.test(text))) return null;
  const names = tools.map((t) => t.name);
  // A bare canary (e.g. in a baited credential) is not an order: naming a tool without a trigger word needs a real marker.
  const mention =
    findToolAfterTrigger(text, names) ??
    (INSTRUCTION_MARKERS.slice(1).some((re) => re.test(text)) ? findFirstTool(text, names, 0, text.length) : null);
  if (!mention) return null;
  const args = firstJsonObject(text, mention.index + mention.name.length) ?? {};
  const canary = findCanary(text);
  if (canary && !Object.values(args).some((v) => typeof v === 'string' && v.includes(canary))) {
    const offered = tools.find((t) => t.name === mention.name);
    const props = propertyNames(offered?.parameters);
    const key =
      TEXT_ARGUMENTS.find((k) => typeof args[k] === 'string') ?? TEXT_ARGUMENTS.find((k) => props.includes(k)) ?? 'body';
    args[key] = typeof args[key] === 'string' && args[key] !== '' ? `${args[key] as string} ${canary}` : canary;
  }
  return { name: mention.name, arguments: args };
}

function findToolAfterTrigger(text: string, names: string[]): { name: string; index: number } | null {
  for (const trigger of text.matchAll(TRIGGER)) {
    const from = trigger.index! + trigger[0].length;
    const hit = findFirstTool(text, names, from, from + TRIGGER_WINDOW);
    if (hit) return hit;
  }
  return null;
}

function findFirstTool(text: string, names: string[], from: number, to: number): { name: string; index: number } | null {
  let best: { name: string; index: number } | null = null;
  for (const name of names) {
    const re = new RegExp(`(?<![A-Za-z0-9_])${escapeRegExp(name)}(?![A-Za-z0-9_])`, 'g');
    re.lastIndex = from;
    const m = re.exec(text);
    if (m && m.index < to && (!best || m.index < best.index || (m.index === best.index && name.length > best.name.length))) {
      best = { name, index: m.index };
    }
  }
  return best;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The first balanced, string-aware `{...}` at or after `from` that parses as a JSON object. */
function firstJsonObject(text: string, from: number): Record<string, unknown> | null {
  for (let start = text.indexOf('{', from); start !== -1; start = text.indexOf('{', start + 1)) {
    const end = balancedEnd(text, start);
    if (end === -1) continue;
    try {
      const value: unknown = JSON.parse(text.slice(start, end + 1));
      if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
    } catch {
      // not JSON: try the next brace
    }
  }
  return null;
}

function balancedEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === '{') depth++;
    else if (ch === '}' && --depth === 0) return i;
  }
  return -1;
}

function propertyNames(parameters: unknown): string[] {
  const props = (parameters as { properties?: unknown } | undefined)?.properties;
  return props && typeof props === 'object' ? Object.keys(props) : [];
}

/** Starts the demo agent's HTTP server: POST /step (the step protocol), GET /health. */
export async function startDemoAgent(options: DemoAgentOptions = {}): Promise<DemoAgent> {
  const host = options.host ?? '127.0.0.1';
  const guarded = options.guarded ?? false;
  const plans = toPlans(options.traces ?? loadSampleTraces());
  const server = http.createServer((req, res) => {
    handle(req, res, plans, guarded).catch(() => send(res, 500, errorBody('internal_error', 'The demo agent failed.')));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? DEMO_AGENT_DEFAULT_PORT, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const hostPart = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${hostPart}:${port}/step`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        // Keep-alive sockets (fetch keeps them) would otherwise hold close() open.
        server.closeAllConnections();
      }),
  };
}

async function handle(req: http.IncomingMessage, res: http.ServerResponse, plans: DemoPlan[], guarded: boolean): Promise<void> {
  const pathname = new URL(req.url ?? '/', 'http://demo-agent').pathname;
  if (pathname === '/health') {
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, errorBody('method_not_allowed', 'Use GET /health.'));
    return send(res, 200, { status: 'ok', guarded });
  }
  if (pathname !== '/step') return send(res, 404, errorBody('route_not_found', `No route for ${req.method} ${pathname}.`));
  if (req.method !== 'POST') return send(res, 405, errorBody('method_not_allowed', 'Use POST /step.'));
  const raw = await readBody(req);
  if (raw === null) return send(res, 413, errorBody('payload_too_large', `The body exceeds ${MAX_BODY_BYTES} bytes.`));
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    return send(res, 400, errorBody('invalid_json', 'The body is not valid JSON.'));
  }
  const parsed = stepRequestSchema.safeParse(body);
  if (!parsed.success) {
    const details = parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
    return send(res, 400, errorBody('invalid_request', 'The body is not an rts.step.v1 step request.', details));
  }
  return send(res, 200, decideStep(parsed.data, plans, guarded));
}

function readBody(req: http.IncomingMessage): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(tooLarge ? null : Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function errorBody(code: string, message: string, details?: { path: string; message: string }[]): unknown {
  return { error: { code, message, ...(details ? { details } : {}) } };
}

function send(res: http.ServerResponse, status: number, body: unknown): void {
  if (res.headersSent) return;
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

/** Where {@link runDemoAgentCli} writes, and what stops it besides SIGINT/SIGTERM (tests pass an AbortSignal). */
export interface DemoAgentCliIo {
  out?: (line: string) => void;
  err?: (line: string) => void;
  signal?: AbortSignal;
}

const USAGE = 'usage: rts demo-agent [--port <port>] [--host <address>] [--guarded] [--traces <folder>]';

/**
 * `rts demo-agent [--port p] [--host h] [--guarded] [--traces dir]`: serves the demo agent (default port 8788) until
 * Ctrl-C. Resolves with the exit code: 0 after a clean stop, 2 on bad arguments or when the port cannot be bound.
 */
export async function runDemoAgentCli(argv: string[], io: DemoAgentCliIo = {}): Promise<number> {
  const out = io.out ?? ((line: string) => process.stdout.write(`${line}\n`));
  const err = io.err ?? ((line: string) => process.stderr.write(`${line}\n`));
  const options: DemoAgentOptions = {};
  let tracesDir: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i]!.split(/=(.*)/s, 2) as [string, string | undefined];
    const value = (): string | undefined => inline ?? argv[++i];
    if (flag === '--guarded') options.guarded = true;
    else if (flag === '--port') {
      const port = Number(value());
      if (!Number.isInteger(port) || port < 0 || port > 65535) {
        err(`invalid --port\n${USAGE}`);
        return 2;
      }
      options.port = port;
    } else if (flag === '--host') options.host = value();
    else if (flag === '--traces') tracesDir = value();
    else if (flag === '--help' || flag === '-h') {
      out(USAGE);
      return 0;
    } else {
      err(`unknown argument ${argv[i]}\n${USAGE}`);
      return 2;
    }
  }
  let agent: DemoAgent;
  try {
    if (tracesDir !== undefined) options.traces = loadSampleTraces(tracesDir);
    agent = await startDemoAgent(options);
  } catch (e) {
    err(`demo-agent: ${(e as Error).message}`);
    return 2;
  }
  out(`demo agent (${options.guarded ? 'guarded' : 'naive'}) listening on ${agent.url}`);
  out(`use it as a campaign target: {"type":"http","url":"${agent.url}"}; Ctrl-C stops it`);
  await new Promise<void>((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      io.signal?.removeEventListener('abort', stop);
      resolve();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    if (io.signal?.aborted) stop();
    else io.signal?.addEventListener('abort', stop);
  });
  await agent.close();
  out('demo agent stopped');
  return 0;
}
