import { openMcpAttempt, type McpEndpointDeps } from '../../../../functions/core/mcp/endpoint';
import type { AppendResult, McpCall, McpSession, McpSessionsRepo } from '../../../../functions/core/mcp/port';
import { mcpTokenHash, newMcpToken } from '../../../../functions/core/mcp/token';
import { fixedClock, loadTrace, makeCampaign, makeWorld, PROJECT_ID, RUN_ID } from '../../../helpers/replay-fakes';

const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;
const tick = () => new Promise((r) => setImmediate(r));

/** Sessions in memory with the store's conditional append; `rivals` calls of another process slip in before as many appends. */
class MemorySessions implements McpSessionsRepo {
  appends = 0;
  rivals = 0;
  constructor(public session: McpSession) {}
  async get(): Promise<McpSession | null> {
    await tick();
    return clone(this.session);
  }
  async put(session: McpSession): Promise<void> {
    this.session = clone(session);
  }
  async append(_runId: string, _attempt: number, tokenHash: string, count: number, call: McpCall): Promise<AppendResult> {
    await tick();
    this.appends += 1;
    if (this.rivals > 0) {
      this.rivals -= 1;
      this.session.calls.push({ id: `mcp_${this.session.calls.length + 1}`, name: 'get_weather', arguments: {}, turn: 1 });
    }
    if (this.session.token_hash !== tokenHash || this.session.state !== 'open') return 'refused';
    if (this.session.calls.length !== count) return 'conflict';
    this.session.calls.push(clone(call));
    return 'appended';
  }
  async markOver(): Promise<void> {
    this.session.over = true;
  }
  async answer(): Promise<McpSession | null> {
    throw new Error('not used by the endpoint');
  }
}

const ORDERS = Array.from({ length: 20 }, (_, i) => `o${i}`);
const CAMPAIGN = makeCampaign({ target: { type: 'mcp', url: 'https://agent.example.com/invoke' }, max_steps: 200 });

function world(): { deps: McpEndpointDeps; sessions: MemorySessions; token: string } {
  const trace = loadTrace('multi-lookup-trace');
  const { deps } = makeWorld(CAMPAIGN, trace);
  const token = newMcpToken();
  const sessions = new MemorySessions({
    project_id: PROJECT_ID,
    run_id: RUN_ID,
    attempt: 1,
    token_hash: mcpTokenHash(token),
    state: 'open',
    turn: 1,
    calls: [],
    outputs: [],
    over: false,
    campaign_version: 1,
    campaign_id: CAMPAIGN.campaign_id,
    trace_id: trace.trace_id,
    expires_at: Date.parse('2030-01-01T00:00:00Z') / 1000,
  });
  return { deps: { ...deps, mcpSessions: sessions, clock: fixedClock }, sessions, token };
}

describe('openMcpAttempt: the session names what it serves', () => {
  it("serves from the session's trace and campaign, without reading the run", async () => {
    const { deps, token } = world();
    const noRuns = { ...deps, runs: undefined } as unknown as McpEndpointDeps;
    const view = await openMcpAttempt(noRuns, RUN_ID, 1, token);
    expect(view).not.toBeNull();
    expect((await view!.tools()).map((t) => t.name)).toContain('lookup_order');
  });

  it('does not serve a session kept without the trace and campaign (written before they were kept)', async () => {
    const { deps, sessions, token } = world();
    delete sessions.session.trace_id;
    delete sessions.session.campaign_id;
    expect(await openMcpAttempt(deps, RUN_ID, 1, token)).toBeNull();
  });
});

describe('openMcpAttempt: concurrent calls', () => {
  it('serves the calls of one attempt arriving together in one process one at a time: one append each, no lost race', async () => {
    // Prepare
    const { deps, sessions, token } = world();
    const views = await Promise.all(ORDERS.map(() => openMcpAttempt(deps, RUN_ID, 1, token)));
    // Act
    const results = await Promise.all(views.map((v, i) => v!.call(String(i), 'lookup_order', { order_id: ORDERS[i] })));
    // Assess
    expect(sessions.appends).toBe(ORDERS.length);
    expect(sessions.session.calls.map((c) => c.id)).toEqual(ORDERS.map((_, i) => `mcp_${i + 1}`));
    expect(sessions.session.calls.map((c) => c.arguments.order_id)).toEqual(ORDERS);
    expect(results.slice(0, 3).map((r) => JSON.parse(r.content[0]!.text))).toEqual([
      { order_id: '1', total: 10 },
      { error: 'order 2 is archived' },
      { error: 'no recorded result for tool lookup_order' },
    ]);
  });

  it('keeps serving a call that loses more races to other processes than any fixed bound, up to max_steps', async () => {
    // Prepare: 60 calls of other processes land before this one, each just ahead of its append
    const { deps, sessions, token } = world();
    sessions.rivals = 60;
    const view = await openMcpAttempt(deps, RUN_ID, 1, token);
    // Act
    const result = await view!.call('1', 'lookup_order', { order_id: '1' });
    // Assess
    expect(result.isError).toBe(false);
    expect(sessions.session.calls).toHaveLength(61);
    expect(sessions.session.calls[60]).toMatchObject({ id: 'mcp_61', name: 'lookup_order' });
  });

  it('refuses a call that loses races until the attempt is at max_steps, as max_steps_exceeded', async () => {
    // Prepare
    const { deps, sessions, token } = world();
    sessions.rivals = 250;
    const view = await openMcpAttempt(deps, RUN_ID, 1, token);
    // Act
    const result = await view!.call('1', 'lookup_order', { order_id: '1' });
    // Assess
    expect(JSON.parse(result.content[0]!.text)).toEqual({ error: 'max_steps_exceeded' });
    expect(sessions.session.over).toBe(true);
  });
});
