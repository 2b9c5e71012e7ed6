// The simulated user's client over an injected sender: the prompt's layout and cuts, answer parsing and the stop
// token, the exact request, the cache key, max_turns, and user_simulator_unavailable after 3 tries or a blocked address.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { OutboundError, type JudgeCacheRepo, type OutboundRequest, type OutboundResponse } from '../../../../functions/core/ports';
import {
  createUserSimulator,
  maxTurnsOf,
  parseSimulatorAnswer,
  simulatorUserPrompt,
  STOP_TOKEN,
  USER_SIMULATOR_LIMITS,
  USER_SIMULATOR_SYSTEM_PROMPT,
  UserSimulatorUnavailable,
  type SimulatorInput,
} from '../../../../functions/core/replay/user-simulator';

const config = { type: 'openai' as const, base_url: 'https://sim.example.com', model: 'user-model', timeout_ms: 1000 };
const input: SimulatorInput = {
  goal: ['Where is order 1234?', 'Please send it to 9 New Street instead.'],
  conversation: [
    { role: 'user', content: 'Where is order 1234?' },
    { role: 'assistant', content: 'Order 1234 is being packed for 1 Old Road.' },
  ],
};
const answer = (content: unknown): OutboundResponse => ({
  status: 200,
  headers: {},
  body: JSON.stringify({ choices: [{ message: { role: 'assistant', content } }] }),
  durationMs: 1,
});

/** A memory cache with the adapter's expiry rule. */
function memoryCache() {
  const items = new Map<string, { message: string; expiresAt: number }>();
  const cache: Pick<JudgeCacheRepo, 'getMessage' | 'putMessage'> = {
    getMessage: async (p, k, now) => {
      const hit = items.get(`${p}/${k}`);
      return hit && hit.expiresAt > now.getTime() / 1000 ? hit.message : null;
    },
    putMessage: async (p, k, message, expiresAt) => void items.set(`${p}/${k}`, { message, expiresAt }),
  };
  return { cache, items };
}

describe('simulatorUserPrompt', () => {
  it('shows the goal (every recorded user message, numbered) and the conversation so far, in a fixed layout', () => {
    expect(simulatorUserPrompt(input)).toBe(
      [
        '## GOAL (the messages the user sent in the recorded conversation)',
        '1. Where is order 1234?',
        '2. Please send it to 9 New Street instead.',
        '',
        '## CONVERSATION SO FAR',
        '[user] Where is order 1234?',
        '[assistant] Order 1234 is being packed for 1 Old Road.',
        '',
        "Write the user's next message, or ###STOP###.",
      ].join('\n'),
    );
  });

  it('cuts long messages and drops the oldest lines past the conversation limit, keeping the latest answer', () => {
    const long = 'x'.repeat(5000);
    const conversation = Array.from({ length: 12 }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `${i} ${long}` }) as const);
    const text = simulatorUserPrompt({ goal: [long], conversation });
    expect(text).toContain(`1. ${'x'.repeat(USER_SIMULATOR_LIMITS.message)}… [1000 more characters cut]`);
    expect(text).toMatch(/## CONVERSATION SO FAR\n\(7 earlier messages cut\)\n\[assistant\] 7 x/);
    expect(text).toContain('[assistant] 11 x');
  });
});

describe('parseSimulatorAnswer', () => {
  it('reads the next message, trimmed, and the stop token alone or at the end of a message', () => {
    expect(parseSimulatorAnswer(answer('  Please ship it to 9 New Street.\n').body)).toEqual({
      stop: false,
      message: 'Please ship it to 9 New Street.',
    });
    expect(parseSimulatorAnswer(answer(STOP_TOKEN).body)).toEqual({ stop: true });
    expect(parseSimulatorAnswer(answer(`Thanks! ${STOP_TOKEN}`).body)).toEqual({ stop: true });
  });

  it.each([
    ['not JSON', 'nope'],
    ['no choices', JSON.stringify({ choices: [] })],
    ['null content', answer(null).body],
    ['empty content', answer('  ').body],
  ])('refuses %s as retryable', (_name, body) => {
    expect(() => parseSimulatorAnswer(body)).toThrow(/unparseable/);
  });
});

describe('maxTurnsOf', () => {
  it('defaults to the recorded user turns + 2, at most 20; an explicit max_turns wins', () => {
    expect([maxTurnsOf({}, 1), maxTurnsOf({}, 2), maxTurnsOf({}, 19), maxTurnsOf({ max_turns: 3 }, 10)]).toEqual([3, 4, 20, 3]);
  });
});

describe('createUserSimulator', () => {
  it('asks with the documented request: temperature 0, the rts-user-1 system prompt, the layout, the write-only credentials', async () => {
    // Prepare
    const sent: OutboundRequest[] = [];
    const sim = createUserSimulator(
      { ...config, api_key: 'sk-sim', headers: { 'X-Team': 'qa', Authorization: 'ignored' } },
      { http: async (req) => (sent.push(req), answer('Send it to 9 New Street.')), projectId: 'p', now: () => new Date(), recordedTurns: 2 },
    );
    // Act
    const got = await sim.next(input);
    // Assess
    expect(got).toEqual({ answer: { stop: false, message: 'Send it to 9 New Street.' }, cached: false });
    expect(sim.maxTurns).toBe(4);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      url: 'https://sim.example.com/v1/chat/completions',
      method: 'POST',
      headers: { 'X-Team': 'qa', 'Content-Type': 'application/json', Authorization: 'Bearer sk-sim' },
      timeoutMs: 1000,
    });
    expect(JSON.parse(sent[0].body!)).toEqual({
      model: 'user-model',
      temperature: 0,
      messages: [
        { role: 'system', content: USER_SIMULATOR_SYSTEM_PROMPT },
        { role: 'user', content: simulatorUserPrompt(input) },
      ],
    });
  });

  it('tries 3 times (0.5 s, 1 s apart), then throws UserSimulatorUnavailable; a blocked address is refused at once', async () => {
    // Prepare
    const waits: number[] = [];
    let calls = 0;
    const failing = createUserSimulator(config, {
      http: async () => (calls++, { status: 502, headers: {}, body: '', durationMs: 1 }),
      sleep: async (ms) => void waits.push(ms),
      projectId: 'p',
      now: () => new Date(),
      recordedTurns: 1,
    });
    // Act + Assess
    await expect(failing.next(input)).rejects.toThrow(new UserSimulatorUnavailable('user simulator failed after 3 tries: HTTP 502'));
    expect([calls, waits]).toEqual([3, [500, 1000]]);

    calls = 0;
    const blocked = createUserSimulator(config, {
      http: async () => {
        calls++;
        throw new OutboundError('blocked', 'blocked: 10.0.0.1 is a private address');
      },
      sleep: async () => undefined,
      projectId: 'p',
      now: () => new Date(),
      recordedTurns: 1,
    });
    await expect(blocked.next(input)).rejects.toThrow(/^user simulator blocked: 10\.0\.0\.1/);
    expect(calls).toBe(1);
  });

  it('caches per project for 30 days by prompt version, base_url, model and the conversation shown, the stop token too', async () => {
    // Prepare
    const { cache, items } = memoryCache();
    const sent: OutboundRequest[] = [];
    let now = new Date('2026-11-23T00:00:00Z');
    let reply = 'Send it to 9 New Street.';
    const deps = (projectId: string) => ({
      http: async (req: OutboundRequest) => (sent.push(req), answer(reply)),
      cache,
      projectId,
      now: () => now,
      recordedTurns: 2,
    });
    const sim = createUserSimulator(config, deps('p1'));
    // Act + Assess
    expect((await sim.next(input)).cached).toBe(false);
    expect(await sim.next(input)).toEqual({ answer: { stop: false, message: 'Send it to 9 New Street.' }, cached: true });
    const longer: SimulatorInput = { ...input, conversation: [...input.conversation, { role: 'user', content: 'Thanks' }] };
    reply = STOP_TOKEN;
    expect((await sim.next(longer)).cached).toBe(false);
    expect(await sim.next(longer)).toEqual({ answer: { stop: true }, cached: true });
    expect((await createUserSimulator({ ...config, model: 'm2' }, deps('p1')).next(input)).cached).toBe(false);
    expect((await createUserSimulator({ ...config, base_url: 'https://sim2.example.com' }, deps('p1')).next(input)).cached).toBe(false);
    expect((await createUserSimulator(config, deps('p2')).next(input)).cached).toBe(false);
    expect(sent).toHaveLength(5);
    expect([...items.values()][0].expiresAt).toBe(Date.parse('2026-11-23T00:00:00Z') / 1000 + 30 * 24 * 3600);
    now = new Date('2026-12-24T00:00:00Z');
    expect((await sim.next(input)).cached).toBe(false);
  });
});

describe('docs/campaigns-and-replay.md#simulated-user', () => {
  it('prints the rts-user-1 system prompt whole, as sent', () => {
    const doc = readFileSync(join(__dirname, '../../../../docs/campaigns-and-replay.md'), 'utf8');
    const printed = USER_SIMULATOR_SYSTEM_PROMPT.split('\n')
      .map((l) => `  ${l}`)
      .join('\n');
    expect(doc).toContain(`prompt version \`rts-user-1\``);
    expect(doc).toContain(`  \`\`\`text\n${printed}\n  \`\`\``);
  });
});
