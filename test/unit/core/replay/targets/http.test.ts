import { httpTarget } from '../../../../../functions/core/replay/targets/http';
import { TargetError, type StepRequest } from '../../../../../functions/core/replay/types';
import { OutboundError, type OutboundRequest, type OutboundResponse } from '../../../../../functions/core/ports';

type Reply = OutboundResponse | OutboundError | Error;
const ok = (body: unknown, status = 200): OutboundResponse => ({
  status,
  headers: {},
  body: typeof body === 'string' ? body : JSON.stringify(body),
  durationMs: 1,
});

/** A sender answering from a script, remembering requests and the waits asked for. */
function fakeSender(...replies: Reply[]) {
  const requests: OutboundRequest[] = [];
  const sleeps: number[] = [];
  const http = async (req: OutboundRequest): Promise<OutboundResponse> => {
    requests.push(req);
    const next = replies.shift() ?? ok({ output: 'fallback' });
    if (next instanceof Error) throw next;
    return next;
  };
  return { http, requests, sleeps, sleep: async (ms: number) => void sleeps.push(ms) };
}

const target = {
  type: 'http' as const,
  url: 'https://agent.example.com/rts/step',
  headers: { Authorization: 'Bearer t0k', 'content-type': 'text/plain' },
  timeout_ms: 1234,
};
const request: StepRequest = {
  run_id: 'run-1',
  attempt: 2,
  step: 3,
  tools: [{ name: 'lookup_order' }],
  messages: [{ role: 'user', content: 'hi' }],
};

describe('http target: step protocol', () => {
  it('POSTs rts.step.v1 with the campaign headers, JSON content type, idempotency key and timeout', async () => {
    // Prepare
    const f = fakeSender(ok({ output: 'hello' }));
    // Act
    const turn = await httpTarget(target, f).step(request);
    // Assess
    expect(turn).toEqual({ output: 'hello' });
    const sent = f.requests[0];
    expect(sent).toMatchObject({ url: target.url, method: 'POST', timeoutMs: 1234 });
    expect(sent.headers).toEqual({ Authorization: 'Bearer t0k', 'Content-Type': 'application/json', 'Idempotency-Key': 'run-1:2:3' });
    expect(JSON.parse(sent.body ?? '')).toEqual({
      protocol: 'rts.step.v1',
      run_id: 'run-1',
      attempt: 2,
      step: 3,
      tools: [{ name: 'lookup_order' }],
      messages: [{ role: 'user', content: 'hi' }],
    });
  });

  it('reads tool calls, parsing string arguments and tolerating a missing id', async () => {
    // Prepare
    const f = fakeSender(
      ok({
        tool_calls: [
          { id: 'x', name: 'lookup_order', arguments: { order_id: '1' } },
          { name: 'refund_order', arguments: '{"amount":5}' },
        ],
      }),
    );
    // Act
    const turn = await httpTarget(target, f).step(request);
    // Assess
    expect(turn).toEqual({
      tool_calls: [
        { id: 'x', name: 'lookup_order', arguments: { order_id: '1' } },
        { id: '', name: 'refund_order', arguments: { amount: 5 } },
      ],
      content: null,
    });
  });
});

describe('http target: retry policy', () => {
  it('retries a 500 after 0.5 s and succeeds on the next 200', async () => {
    // Prepare
    const f = fakeSender(ok('oops', 500), ok({ output: 'fine' }));
    // Act
    const turn = await httpTarget(target, f).step(request);
    // Assess
    expect(turn).toEqual({ output: 'fine' });
    expect(f.sleeps).toEqual([500]);
    expect(f.requests.map((r) => r.headers['Idempotency-Key'])).toEqual(['run-1:2:3', 'run-1:2:3']);
  });

  it('retries unparseable answers and gives up after three tries with a TargetError', async () => {
    // Prepare
    const f = fakeSender(ok('<html>'), ok({ neither: true }), ok({ tool_calls: [{ arguments: {} }] }));
    // Act
    const result = httpTarget(target, f).step(request);
    // Assess
    await expect(result).rejects.toThrow(TargetError);
    await expect(result).rejects.toThrow('target failed after 3 tries: unparseable answer: tool_calls[0] needs a name');
    expect(f.requests).toHaveLength(3);
    expect(f.sleeps).toEqual([500, 1000]);
  });

  it('ends with an error after three timeouts', async () => {
    // Prepare
    const timeout = () => new OutboundError('timeout', 'timeout after 1234 ms');
    const f = fakeSender(timeout(), timeout(), timeout(), ok({ output: 'too late' }));
    // Act
    const result = httpTarget(target, f).step(request);
    // Assess
    await expect(result).rejects.toThrow('target failed after 3 tries: timeout after 1234 ms');
    expect(f.requests).toHaveLength(3);
  });

  it('does not retry an address refused by the SSRF guard', async () => {
    // Prepare
    const f = fakeSender(new OutboundError('blocked', 'blocked: 127.0.0.1 is a loopback address'), ok({ output: 'never' }));
    // Act
    const result = httpTarget(target, f).step(request);
    // Assess
    await expect(result).rejects.toThrow('target blocked: 127.0.0.1 is a loopback address');
    expect(f.requests).toHaveLength(1);
    expect(f.sleeps).toEqual([]);
  });

  it('treats a non-2xx status as retryable even when the body is a valid answer', async () => {
    // Prepare
    const f = fakeSender(ok({ output: 'x' }, 302), ok({ output: 'x' }, 404), ok({ output: 'y' }));
    // Act
    const turn = await httpTarget(target, f).step(request);
    // Assess
    expect(turn).toEqual({ output: 'y' });
    expect(f.requests).toHaveLength(3);
  });
});
