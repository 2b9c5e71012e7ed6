// A simulated user driving attempts with in-memory fakes: the simulator's message opens turn 2 in place of the recorded
// one, the simulator sees only user and assistant messages, the stop token and max_turns end the attempt (not a
// failure), a cached conversation replays without calls, a broken simulator makes the attempt an `error`
// (user_simulator_unavailable, or rate_limited when it stays throttled), and the campaign schema's rules.
import { campaignInputSchema, type Campaign } from '../../../../functions/core/campaigns/schema';
import { redactCampaign } from '../../../../functions/core/campaigns/redact';
import { definitionOf, keepMaskedSecrets } from '../../../../functions/core/campaigns/versions';
import type { JudgeCacheRepo, OutboundRequest, OutboundResponse } from '../../../../functions/core/ports';
import { runAttempt } from '../../../../functions/core/replay/attempt';
import { compileRun } from '../../../../functions/core/replay/compile';
import { executeRun } from '../../../../functions/core/replay/executor';
import { planAttempts } from '../../../../functions/core/replay/plan';
import { scoringContext } from '../../../../functions/core/replay/scoring';
import { createUserSimulator, STOP_TOKEN } from '../../../../functions/core/replay/user-simulator';
import type { AgentTarget, ChatMessage, StepRequest } from '../../../../functions/core/replay/types';
import type { Trace } from '../../../../functions/core/traces/schema';
import { fixedClock, loadTrace, makeCampaign, makeWorld, RUN_ID } from '../../../helpers/replay-fakes';

const SIM = { type: 'openai', base_url: 'https://sim.example.com/v1', model: 'user-model' };
const twoTurns = loadTrace('two-turn-trace');
const SIMULATED = 'Actually, ship it to 5 Elm Street.';

const ok = (content: string): OutboundResponse => ({
  status: 200,
  headers: {},
  body: JSON.stringify({ choices: [{ message: { role: 'assistant', content } }] }),
  durationMs: 1,
});

/** A step agent that looks the order up, changes the address when asked, and answers after each tool result. */
function addressAgent(): AgentTarget & { requests: StepRequest[] } {
  const requests: StepRequest[] = [];
  return {
    requests,
    async step(req) {
      requests.push({ ...req, messages: [...req.messages] });
      const last = req.messages[req.messages.length - 1] as ChatMessage;
      if (last.role === 'user') {
        const change = /street/i.test(last.content);
        return { tool_calls: [{ id: `c${req.step}`, name: change ? 'update_address' : 'lookup_order', arguments: { order_id: '1234' } }] };
      }
      return { output: last.role === 'tool' && last.name === 'update_address' ? 'Address changed.' : 'Order 1234 is being packed.' };
    },
  };
}

/** A scripted simulator endpoint: answers in turn (the last answer repeats), keeps every request. */
function simulatorServer(answers: Array<string | OutboundResponse>) {
  const requests: OutboundRequest[] = [];
  const http = async (req: OutboundRequest): Promise<OutboundResponse> => {
    requests.push(req);
    const next = answers[Math.min(requests.length - 1, answers.length - 1)];
    return typeof next === 'string' ? ok(next) : next;
  };
  return { http, requests, prompts: () => requests.map((r) => JSON.parse(r.body!).messages[1].content as string) };
}

function memoryCache(): Pick<JudgeCacheRepo, 'getMessage' | 'putMessage'> {
  const items = new Map<string, string>();
  return { getMessage: async (p, k) => items.get(`${p}/${k}`) ?? null, putMessage: async (p, k, m) => void items.set(`${p}/${k}`, m) };
}

async function attemptWith(
  campaign: Campaign,
  server: ReturnType<typeof simulatorServer>,
  opts: { trace?: Trace; agent?: AgentTarget; cache?: Pick<JudgeCacheRepo, 'getMessage' | 'putMessage'>; mutation?: string } = {},
) {
  const trace = opts.trace ?? twoTurns;
  const compiled = compileRun({ run_id: RUN_ID, trace, campaign });
  const planned = planAttempts(campaign).find((p) => p.mutation_id === (opts.mutation ?? null))!;
  const simulator = createUserSimulator(campaign.user_simulator!, {
    http: server.http,
    sleep: async () => undefined,
    cache: opts.cache,
    projectId: 'p',
    now: () => fixedClock.now(),
    recordedTurns: compiled.turnCount,
  });
  return runAttempt(compiled, planned, opts.agent ?? addressAgent(), fixedClock, undefined, simulator);
}

describe('an attempt with a simulated user', () => {
  it("opens turn 2 with the simulator's message, never the recorded one, and shows it only user and assistant messages", async () => {
    // Prepare
    const agent = addressAgent();
    const server = simulatorServer([SIMULATED, STOP_TOKEN]);
    // Act
    const record = await attemptWith(makeCampaign({ user_simulator: SIM }), server, { agent });
    // Assess
    expect(record).toMatchObject({ status: 'passed', error_code: null, turn_outputs: ['Order 1234 is being packed.', 'Address changed.'] });
    expect(record).toMatchObject({ user_simulator_calls: 2, user_simulator_cache_hits: 0 });
    expect(JSON.stringify(agent.requests)).not.toContain('New Street');
    expect(agent.requests.map((r) => r.turn)).toEqual([1, 1, 2, 2]);
    expect(agent.requests[2].messages.slice(-2)).toEqual([
      { role: 'assistant', content: 'Order 1234 is being packed.' },
      { role: 'user', content: SIMULATED },
    ]);
    const users = record.transcript.filter((e) => e.type === 'message' && e.role === 'user');
    expect(users).toEqual([
      { type: 'message', role: 'user', content: 'Where is order 1234?', turn: 1 },
      { type: 'message', role: 'user', content: SIMULATED, turn: 2, simulated: true },
    ]);
    const [first, second] = server.prompts();
    expect(first).toContain('1. Where is order 1234?\n2. Please send it to 9 New Street instead.');
    expect(first).toContain('## CONVERSATION SO FAR\n[user] Where is order 1234?\n[assistant] Order 1234 is being packed.\n\n');
    expect(second).toContain(`[assistant] Order 1234 is being packed.\n[user] ${SIMULATED}\n[assistant] Address changed.`);
    for (const prompt of server.prompts()) expect(prompt).not.toMatch(/lookup_order|update_address|packing|1 Old Road|\[tool\]/);
  });

  it('ends after the output for turn max_turns without asking again, and that is not a failure', async () => {
    const server = simulatorServer(['Ship it to 5 Elm Street.', 'And gift-wrap it, Street style.']);
    const record = await attemptWith(makeCampaign({ user_simulator: { ...SIM, max_turns: 2 } }), server);
    expect(server.requests).toHaveLength(1);
    expect(record).toMatchObject({ status: 'passed', error: null, user_simulator_calls: 1 });
    expect(record.turn_outputs).toHaveLength(2);
  });

  it('ends at turn 1 on an immediate stop token, numbering the turn of a single-turn trace', async () => {
    const record = await attemptWith(makeCampaign({ user_simulator: SIM }), simulatorServer([STOP_TOKEN]), {
      trace: loadTrace('refund-trace'),
      agent: { step: async () => ({ output: 'Refunded.' }) },
    });
    expect(record).toMatchObject({ status: 'passed', turn_outputs: ['Refunded.'], user_simulator_calls: 1 });
    expect(record.transcript.every((e) => e.type !== 'message' || e.turn === 1)).toBe(true);
  });

  it('replays a cached conversation on a rerun without a single call', async () => {
    // Prepare
    const cache = memoryCache();
    const campaign = makeCampaign({ user_simulator: SIM });
    const server = simulatorServer([SIMULATED, STOP_TOKEN]);
    const first = await attemptWith(campaign, server, { cache });
    // Act
    const rerun = await attemptWith(campaign, server, { cache });
    // Assess
    expect(server.requests).toHaveLength(2);
    expect(rerun).toMatchObject({ user_simulator_calls: 0, user_simulator_cache_hits: 2 });
    expect(rerun.transcript).toEqual(first.transcript);
  });

  it("applies the attempt's input perturbation to the simulated messages too", async () => {
    const campaign = makeCampaign({ user_simulator: SIM, mutations: [{ id: 'loud', type: 'input_perturbation', kind: 'uppercase' }] });
    const record = await attemptWith(campaign, simulatorServer([SIMULATED, STOP_TOKEN]), { mutation: 'loud' });
    const users = record.transcript.filter((e) => e.type === 'message' && e.role === 'user').map((e) => e.type === 'message' && e.content);
    expect(users).toEqual(['WHERE IS ORDER 1234?', SIMULATED.toUpperCase()]);
  });

  it('is an error (user_simulator_unavailable) after exactly 3 failed tries, and the judge is not asked', async () => {
    // Prepare
    const server = simulatorServer([{ status: 500, headers: {}, body: 'down', durationMs: 1 }]);
    const judged = makeCampaign({
      user_simulator: SIM,
      judge: { type: 'openai', base_url: 'https://judge.example.com', model: 'j' },
      criteria: [{ type: 'llm_judge', rubric: 'polite' }],
    });
    // Act
    const record = await attemptWith(judged, server);
    // Assess
    expect(server.requests).toHaveLength(3);
    expect(record).toMatchObject({ status: 'error', error_code: 'user_simulator_unavailable', turn_outputs: ['Order 1234 is being packed.'] });
    expect(record.error).toBe('user_simulator_unavailable: user simulator failed after 3 tries: HTTP 500');
    expect(record.judge_calls).toBeUndefined();
  });
});

describe('the executor with a simulated user', () => {
  const agentOrSimulator = (sim: (req: OutboundRequest) => OutboundResponse) => {
    const agent = addressAgent();
    return async (req: OutboundRequest): Promise<OutboundResponse> => {
      if (req.url.startsWith('https://sim.example.com')) return sim(req);
      const body = JSON.parse(req.body!);
      const turn = await agent.step(body);
      return { status: 200, headers: {}, body: JSON.stringify(turn), durationMs: 1 };
    };
  };

  it('sums the calls in the scoring context and names the prompt version', async () => {
    const w = makeWorld(makeCampaign({ user_simulator: SIM, repeats: 2 }), twoTurns);
    let n = 0;
    w.deps.http = agentOrSimulator(() => ok(n++ % 2 === 0 ? SIMULATED : STOP_TOKEN));
    await executeRun(w.deps, w.msg, { sleep: async () => undefined, concurrency: 1 });
    const attempts = await w.deps.runs.listAttempts('p', RUN_ID);
    expect(attempts.map((a) => a.status)).toEqual(['passed', 'passed']);
    expect(scoringContext(w.deps.campaigns.campaigns.values().next().value!, attempts)).toMatchObject({
      user_simulator_calls: 4,
      user_simulator_cache_hits: 0,
      user_simulator_prompt_version: 'rts-user-1',
      judge_prompt_version: null,
    });
    expect(scoringContext(makeCampaign(), attempts).user_simulator_prompt_version).toBeNull();
  });

  it('ends an attempt whose simulator stays throttled past its limits.max_wait_s as rate_limited', async () => {
    const w = makeWorld(makeCampaign({ user_simulator: { ...SIM, limits: { max_wait_s: 0 } } }), twoTurns);
    w.deps.http = agentOrSimulator(() => ({ status: 429, headers: {}, body: '{}', durationMs: 1 }));
    await executeRun(w.deps, w.msg, { sleep: async () => undefined });
    const [attempt] = await w.deps.runs.listAttempts('p', RUN_ID);
    expect([attempt.status, attempt.error_code]).toEqual(['error', 'rate_limited']);
    expect(attempt.error).toMatch(/^user_simulator_unavailable: user simulator rate limited: HTTP 429/);
  });
});

describe('user_simulator in a campaign', () => {
  const base = { name: 'sim', target: { type: 'http', url: 'https://agent.example.com/step' } };

  it('is refused on a recorded target, and with max_turns outside 1-20, naming the field', () => {
    const paths = (body: unknown) => campaignInputSchema.safeParse(body).error?.issues.map((i) => i.path.join('.'));
    expect(paths({ ...base, target: { type: 'recorded' }, user_simulator: SIM })).toEqual(['user_simulator']);
    expect(paths({ ...base, user_simulator: { ...SIM, max_turns: 0 } })).toEqual(['user_simulator.max_turns']);
    expect(paths({ ...base, user_simulator: { ...SIM, max_turns: 21 } })).toEqual(['user_simulator.max_turns']);
    expect(paths({ ...base, user_simulator: { ...SIM, base_url: 'ftp://sim.example.com' } })).toEqual(['user_simulator.base_url']);
    expect(paths({ ...base, user_simulator: SIM })).toBeUndefined();
  });

  it('keeps api_key and headers write-only: masked on read, kept from "***" on update', () => {
    const stored = makeCampaign({ user_simulator: { ...SIM, api_key: 'sk-sim', headers: { 'X-Team': 'qa' } } });
    const shown = redactCampaign(stored);
    expect(shown.user_simulator).toEqual({ ...SIM, api_key: '***', headers: { 'X-Team': '***' }, timeout_ms: 60000 });
    expect(JSON.stringify(shown)).not.toMatch(/sk-sim|"qa"/);
    const kept = keepMaskedSecrets(definitionOf(shown), definitionOf(stored));
    expect(kept.user_simulator).toEqual(stored.user_simulator);
  });
});
