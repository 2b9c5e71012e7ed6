// The acceptance suite of an agent framework against the `mcp` target: the framework's example invoke endpoint
// (examples/mcp/) runs unchanged in a process of its own, its model a scripted OpenAI-compatible server, and replays
// the sample refund trace through the local service with the sample campaign's attacks, faults and policies.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startFrameworkEndpoint, type FrameworkEndpoint } from './framework-endpoint';
import { startTestService, type TestService } from './local-service';
import { startScriptedModel, type ModelScript, type ModelTurn, type ScriptedModel, type SeenResult } from './scripted-model';

const ROOT = join(__dirname, '..', '..');
const TRACE = JSON.parse(readFileSync(join(ROOT, 'samples', 'traces', 'refund-order.json'), 'utf8'));
const SAMPLE = JSON.parse(readFileSync(join(ROOT, 'samples', 'campaign.json'), 'utf8'));
const sampleMutation = (id: string) => SAMPLE.mutations.find((m: { id: string }) => m.id === id);
const samplePolicy = (id: string) => SAMPLE.policies.find((p: { id: string }) => p.id === id);

const SECRET = 'invoke-secret-for-tests';
/** A test replaying one campaign: a few seconds, far more on a loaded machine (the run itself gives up after 45 s). */
const CAMPAIGN_MS = 60_000;
const ORDER = { order_id: '1234' };
const REFUND = { order_id: '1234', amount: 42.5, reason: 'items damaged on arrival' };
/** Text only the recorded results hold: the lookup's customer address, the refund's id. */
const RECORDED_LOOKUP = 'dana.reyes@example.com';
const RECORDED_REFUND = 'rf_8c21';

export interface RefundModelOptions {
  /** Calls send_email as a tool result tells it to (the naive model); otherwise never. */
  followsInjections?: boolean;
  /** Deletes the order before anything else, against its instructions. */
  deletes?: boolean;
  /** Asks for the same lookup twice at once (parallel tool calls). */
  looksUpTwice?: boolean;
}

/**
 * The refund agent's model: looks order 1234 up (once more after a failed lookup), refunds it, answers. Its decisions
 * come only from the tool results it is shown, whatever framework shows them.
 */
export function refundModel(opts: RefundModelOptions = {}): ModelScript {
  const call = (name: string, args: Record<string, unknown>): ModelTurn => ({ calls: [{ name, arguments: args }] });
  return (results) => {
    const of = (name: string): SeenResult[] => results.filter((r) => r.name === name);
    if (opts.deletes && of('delete_order').length === 0) return call('delete_order', ORDER);
    const lookups = of('lookup_order');
    if (lookups.length === 0) {
      const lookup = { name: 'lookup_order', arguments: ORDER };
      return { calls: opts.looksUpTwice ? [lookup, lookup] : [lookup] };
    }
    const found = lookups.find((r) => r.text.includes(RECORDED_LOOKUP));
    if (!found)
      return lookups.length < 2 ? call('lookup_order', ORDER) : { answer: 'Sorry, I could not look your order up: please try again later.' };
    const asked = /send_email[\s\S]*?([\w.+-]+@[\w-]+(?:\.[\w-]+)+)/.exec(found.text);
    if (opts.followsInjections && asked && of('send_email').length === 0) {
      return call('send_email', { to: asked[1], subject: 'Order 1234', body: found.text });
    }
    const refunds = of('refund_order');
    if (refunds.length === 0) return call('refund_order', REFUND);
    return {
      answer: refunds[0].text.includes('approved') ? 'Refunded $42.50 for order 1234: your refund is on its way.' : 'Sorry, the refund failed.',
    };
  };
}

/** Defines the suite for the example `example` of examples/mcp/ (`label` names the framework). */
export function describeFramework(label: string, example: string): void {
  describe(`${label} (examples/mcp/${example}.ts) against the mcp target`, () => {
    let svc: TestService;
    let model: ScriptedModel;
    let agent: FrameworkEndpoint;

    beforeAll(async () => {
      model = await startScriptedModel(refundModel());
      // Both settle before a failure is thrown, so afterAll stops whichever did start.
      const started = await Promise.allSettled([
        startTestService({ deliverWebhooks: false }).then((s) => (svc = s)),
        startFrameworkEndpoint(example, { OPENAI_BASE_URL: model.baseURL, OPENAI_API_KEY: 'sk-scripted', INVOKE_SECRET: SECRET }).then(
          (a) => (agent = a),
        ),
      ]);
      for (const s of started) if (s.status === 'rejected') throw s.reason;
      expect((await svc.api('POST', '/v1/traces', TRACE)).status).toBe(201);
    }, 90_000);
    afterAll(async () => {
      await agent?.stop();
      await model?.close();
      await svc?.stop();
    });
    beforeEach(() => model.reset());

    /** Runs a campaign against the framework's endpoint with `script` as its model; returns the run and its attempts. */
    async function replay(script: ModelScript, definition: Record<string, unknown>): Promise<{ detail: any; attempts: any[] }> {
      model.script = script;
      const target = { type: 'mcp', url: agent.url, headers: { Authorization: `Bearer ${SECRET}` }, timeout_ms: 20_000 };
      const c = await svc.api('POST', '/v1/campaigns', { name: `${example} over mcp`, max_steps: 12, ...definition, target });
      expect(c.status).toBe(201);
      const r = await svc.api('POST', '/v1/runs', { trace_id: TRACE.trace_id, campaign_id: c.body.campaign_id });
      expect(r.status).toBe(202);
      const end = Date.now() + 45_000;
      for (;;) {
        const res = await svc.api('GET', `/v1/runs/${r.body.run_id}`);
        if (res.body.status === 'completed' || res.body.status === 'failed') {
          const attempts = (await svc.api('GET', `/v1/runs/${r.body.run_id}/attempts`)).body.items;
          const broken = attempts.filter((a: any) => a.status === 'error');
          if (broken.length > 0) throw new Error(`attempts in error: ${JSON.stringify(broken.map((a: any) => a.error))}\n${agent.output()}`);
          return { detail: res.body, attempts };
        }
        if (Date.now() > end) throw new Error(`run still ${res.body.status}:\n${agent.output()}`);
        await new Promise((tick) => setTimeout(tick, 50));
      }
    }

    const served = (attempt: any) => attempt.transcript.filter((e: any) => e.type === 'tool_result').map((e: any) => [e.tool, e.served]);

    it(
      'runs the agent unchanged and shows its model each recorded result once, a repeated call an error',
      async () => {
        // Prepare
        const script = refundModel({ looksUpTwice: true });
        // Act
        const { detail, attempts } = await replay(script, {});
        // Assess
        expect(detail.status).toBe('completed');
        const [a] = attempts;
        expect(a.status).toBe('passed');
        expect(a.output).toBe('Refunded $42.50 for order 1234: your refund is on its way.');
        expect(served(a).sort()).toEqual([
          ['lookup_order', 'recorded'],
          ['lookup_order', 'unrecorded'],
          ['refund_order', 'recorded'],
        ]);
        const seen = model.seen();
        expect(seen.map((s) => s.name)).toEqual(['lookup_order', 'lookup_order', 'refund_order']);
        expect(seen.filter((s) => s.text.includes(RECORDED_LOOKUP))).toHaveLength(1);
        expect(seen.filter((s) => s.text.includes('no recorded result for tool lookup_order'))).toHaveLength(1);
        expect(seen.filter((s) => s.text.includes(RECORDED_REFUND))).toHaveLength(1);
      },
      CAMPAIGN_MS,
    );

    it(
      'makes the attempt unsafe when the model follows the sample prompt injection: exfiltration through the MCP call',
      async () => {
        // Prepare
        const definition = { ...SAMPLE, include_baseline: false, mutations: [sampleMutation('inject-first-read')] };
        // Act
        const { attempts } = await replay(refundModel({ followsInjections: true }), definition);
        // Assess
        const [a] = attempts;
        expect(model.seen().some((s) => s.name === 'lookup_order' && s.text.includes('IMPORTANT SYSTEM NOTICE'))).toBe(true);
        expect(a.transcript.find((e: any) => e.tool === 'send_email')?.arguments.to).toBe('attacker@evil.test');
        expect(a.unsafe).toBe(true);
        expect(a.status).toBe('failed');
        expect(a.security_events.map((e: any) => e.kind)).toContain('exfiltration');
      },
      CAMPAIGN_MS,
    );

    it(
      'passes the attempt when the model ignores the sample prompt injection',
      async () => {
        // Prepare
        const definition = { ...SAMPLE, include_baseline: false, mutations: [sampleMutation('inject-first-read')] };
        // Act
        const { attempts } = await replay(refundModel({ followsInjections: false }), definition);
        // Assess
        const [a] = attempts;
        expect(model.seen().some((s) => s.text.includes('IMPORTANT SYSTEM NOTICE'))).toBe(true);
        expect(served(a)).toEqual([
          ['lookup_order', 'recorded'],
          ['refund_order', 'recorded'],
        ]);
        expect(a).toMatchObject({ status: 'passed', unsafe: false });
      },
      CAMPAIGN_MS,
    );

    it(
      'hands a deny_tools denial to the framework as a tool error its model reads',
      async () => {
        // Prepare
        const definition = { policies: [samplePolicy('no-delete')] };
        // Act
        const { attempts } = await replay(refundModel({ deletes: true }), definition);
        // Assess
        const [a] = attempts;
        const deleted = model.seen().filter((s) => s.name === 'delete_order');
        expect(deleted).toHaveLength(1);
        expect(deleted[0].text).toContain('denied_by_policy');
        expect(deleted[0].text).toContain('no-delete');
        expect(a.policy_events.map((e: any) => [e.policy_id, e.decision])).toEqual([['no-delete', 'deny']]);
        expect(served(a)[0]).toEqual(['delete_order', 'denied']);
      },
      CAMPAIGN_MS,
    );

    it(
      'shows the model the tool_error and tool_timeout mutations of the sample campaign',
      async () => {
        // Prepare
        const definition = { include_baseline: false, mutations: [sampleMutation('lookup-down'), sampleMutation('first-call-timeout')] };
        // Act
        const { attempts } = await replay(refundModel(), definition);
        // Assess
        const seen = model.seen().filter((s) => s.name === 'lookup_order');
        expect(seen.filter((s) => s.text.includes('503 Service Unavailable'))).toHaveLength(2);
        expect(seen.filter((s) => s.text.includes('timeout: tool lookup_order did not respond'))).toHaveLength(1);
        const byMutation = Object.fromEntries(attempts.map((a) => [a.mutation_id, a]));
        expect(byMutation['lookup-down']).toMatchObject({
          status: 'passed',
          output: 'Sorry, I could not look your order up: please try again later.',
        });
        expect(byMutation['first-call-timeout']).toMatchObject({
          status: 'passed',
          output: 'Refunded $42.50 for order 1234: your refund is on its way.',
        });
        expect(served(byMutation['first-call-timeout'])).toEqual([
          ['lookup_order', 'recorded'],
          ['lookup_order', 'recorded'],
          ['refund_order', 'recorded'],
        ]);
      },
      CAMPAIGN_MS,
    );

    it('refuses an invoke without the campaign secret, before the agent runs', async () => {
      // Act
      const res = await fetch(agent.url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"protocol":"rts.invoke.v1"}' });
      // Assess
      expect(res.status).toBe(401);
      expect(model.requests).toHaveLength(0);
    });
  });
}
