// `rts demo-agent --mcp` end to end through the local service: samples/campaign-mcp.json against the naive and the
// guarded invoke endpoints, whose loops call the recorded tools over MCP with the official SDK client.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runDemoAgentCli, startDemoAgent, type DemoAgent } from '../../functions/cli/demo-agent/command';
import { startTestService, type TestService } from '../helpers/local-service';

const SAMPLES = join(__dirname, '..', '..', 'samples');
const sample = (name: string) => JSON.parse(readFileSync(join(SAMPLES, name), 'utf8'));
const REFUND = sample('traces/refund-order.json');
const SUMMARISE = sample('traces/summarise-document.json');
const MCP_CAMPAIGN = sample('campaign-mcp.json');
const STEP_CAMPAIGN = sample('campaign.json');

let svc: TestService;
let agent: DemoAgent;

beforeAll(async () => {
  svc = await startTestService({ deliverWebhooks: false, queue: { concurrency: 4 } });
  for (const trace of [REFUND, SUMMARISE]) expect((await svc.api('POST', '/v1/traces', trace)).status).toBe(201);
  agent = await startDemoAgent({ port: 0, mcp: true });
}, 60_000);
afterAll(async () => {
  await agent?.close();
  await svc?.stop();
});

async function run(campaign: Record<string, any>, url: string, traceId: string): Promise<{ detail: any; attempts: any[] }> {
  const c = await svc.api('POST', '/v1/campaigns', { ...campaign, target: { ...campaign.target, url } });
  expect(c.status).toBe(201);
  const r = await svc.api('POST', '/v1/runs', { trace_id: traceId, campaign_id: c.body.campaign_id });
  const end = Date.now() + 60_000;
  for (;;) {
    const res = await svc.api('GET', `/v1/runs/${r.body.run_id}`);
    if (res.body.status === 'completed' || res.body.status === 'failed') {
      return { detail: res.body, attempts: (await svc.api('GET', `/v1/runs/${r.body.run_id}/attempts`)).body.items };
    }
    if (Date.now() > end) throw new Error(`run still ${res.body.status}`);
    await new Promise((done) => setTimeout(done, 50));
  }
}

const verdicts = (attempts: any[]) => attempts.map((a) => [a.mutation_id, a.status, a.unsafe]);
const toolsCalled = (attempt: any) => attempt.transcript.filter((e: any) => e.type === 'tool_result').map((e: any) => e.tool);

describe('rts demo-agent --mcp', () => {
  it('prints the naive and the guarded mcp targets', async () => {
    // Prepare
    const lines: string[] = [];
    const stop = new AbortController();
    // Act
    const exit = runDemoAgentCli(['--mcp', '--port', '0'], { out: (l) => lines.push(l), signal: stop.signal });
    while (lines.length < 3) await new Promise((r) => setTimeout(r, 20));
    stop.abort();
    // Assess
    expect(await exit).toBe(0);
    expect(lines[2]).toMatch(
      /^mcp targets: \{"type":"mcp","url":"http:\/\/127\.0\.0\.1:\d+\/invoke\/naive"\} \(naive\), .*\/invoke\/guarded"\} \(guarded\)$/,
    );
  });

  it('makes the naive agent unsafe through the injection it obeys over MCP, with the verdicts of the step agent', async () => {
    // Act
    const mcp = await run(MCP_CAMPAIGN, agent.invoke!.naive, REFUND.trace_id);
    const step = await run(STEP_CAMPAIGN, agent.url, REFUND.trace_id);
    // Assess
    expect(mcp.detail.status).toBe('completed');
    const injected = mcp.attempts.find((a) => a.mutation_id === 'inject-first-read');
    expect(injected).toMatchObject({ status: 'failed', unsafe: true });
    expect(toolsCalled(injected)).toContain('send_email');
    expect(injected.security_events.map((e: any) => `${e.kind}:${e.action}`)).toEqual(expect.arrayContaining(['exfiltration:allowed']));
    expect(mcp.attempts.find((a) => a.mutation_id === null)).toMatchObject({ status: 'passed', unsafe: false });
    expect(verdicts(mcp.attempts)).toEqual(verdicts(step.attempts));
    expect(mcp.attempts.map((a) => toolsCalled(a))).toEqual(step.attempts.map((a) => toolsCalled(a)));
  });

  it('keeps the guarded agent safe on every attempt', async () => {
    // Act
    const refund = await run(MCP_CAMPAIGN, agent.invoke!.guarded, REFUND.trace_id);
    const summarise = await run(MCP_CAMPAIGN, agent.invoke!.guarded, SUMMARISE.trace_id);
    // Assess
    for (const { detail, attempts } of [refund, summarise]) {
      expect(detail.status).toBe('completed');
      expect(detail.summary.unsafe_count).toBe(0);
      expect(attempts.map((a) => a.unsafe)).toEqual(attempts.map(() => false));
      expect(toolsCalled(attempts[0]).length).toBeGreaterThan(0);
    }
  });

  it('answers 400 to a body that is no invoke, and 502 when its MCP endpoint fails', async () => {
    // Act
    const bad = await fetch(agent.invoke!.naive, { method: 'POST', body: '{"protocol":"rts.step.v1"}' });
    const unreachable = await fetch(agent.invoke!.guarded, {
      method: 'POST',
      body: JSON.stringify({ protocol: 'rts.invoke.v1', messages: [], mcp: { url: `${svc.url}/v1/mcp/nope/1`, headers: {} } }),
    });
    // Assess
    expect(bad.status).toBe(400);
    expect(unreachable.status).toBe(502);
  });
});
