import { call, loadTrace, makeCampaign, runOne, scriptedAgent } from '../../../helpers/replay-fakes';

const toolResults = (r: Awaited<ReturnType<typeof runOne>>) => r.transcript.filter((e) => e.type === 'tool_result');

describe('serving tool calls from the recording', () => {
  it.each(['tool_error', 'tool_timeout'])('keeps the recorded result for a retry after an injected %s', async (type) => {
    // Prepare: the first lookup fails by mutation, the agent retries the same call
    const trace = loadTrace('multi-lookup-trace');
    const campaign = makeCampaign({ include_baseline: false, mutations: [{ id: 'down', type, tool: 'lookup_order', occurrence: 1 }] });
    const agent = scriptedAgent([call('lookup_order', { order_id: '1' }), call('lookup_order', { order_id: '1' })]);
    // Act
    const record = await runOne(trace, campaign, agent, 'down');
    // Assess
    const [failed, retried] = toolResults(record);
    expect(failed).toMatchObject({ served: 'recorded', mutation_id: 'down' });
    expect(failed.type).toBe('tool_result');
    expect(failed.type === 'tool_result' ? failed.error : undefined).toEqual(expect.anything());
    expect(retried).toMatchObject({ served: 'recorded', mutation_id: null, result: { order_id: '1', total: 10 }, error: null });
  });

  it('prefers an unused recorded call with the same tool and canonical arguments', async () => {
    // Prepare: the agent asks for order 2 first, with keys in another order than recorded
    const trace = loadTrace('multi-lookup-trace');
    const agent = scriptedAgent([call('lookup_order', { order_id: '2' }), call('lookup_order', { order_id: '1' })]);
    // Act
    const record = await runOne(trace, makeCampaign(), agent);
    // Assess
    const [first, second] = toolResults(record);
    expect(first).toMatchObject({ served: 'recorded', result: { error: 'order 2 is archived' }, error: 'order 2 is archived' });
    expect(second).toMatchObject({ served: 'recorded', result: { order_id: '1', total: 10 }, error: null });
  });

  it('falls back to the next unused recorded call of the tool when the arguments differ', async () => {
    // Prepare
    const trace = loadTrace('multi-lookup-trace');
    const agent = scriptedAgent([call('lookup_order', { order_id: '99' }), call('lookup_order', { order_id: '98' })]);
    // Act
    const record = await runOne(trace, makeCampaign(), agent);
    // Assess
    expect(toolResults(record).map((e) => e.type === 'tool_result' && e.result)).toEqual([
      { order_id: '1', total: 10 },
      { error: 'order 2 is archived' },
    ]);
  });

  it('answers an unrecorded call with an error and a flag event from unrecorded_tool_call, without failing', async () => {
    // Prepare: the third lookup has no recorded result left, get_weather was never recorded
    const trace = loadTrace('multi-lookup-trace');
    const agent = scriptedAgent([
      call('lookup_order', { order_id: '1' }),
      call('lookup_order', { order_id: '2' }),
      call('lookup_order', { order_id: '3' }),
      call('get_weather', { city: 'Oslo' }),
    ]);
    // Act
    const record = await runOne(trace, makeCampaign(), agent);
    // Assess
    const results = toolResults(record);
    expect(results[2]).toMatchObject({ served: 'unrecorded', result: { error: 'no recorded result for tool lookup_order' } });
    expect(results[3]).toMatchObject({ served: 'unrecorded', result: { error: 'no recorded result for tool get_weather' } });
    expect(record.policy_events.map((e) => [e.policy_id, e.policy_type, e.decision, e.tool])).toEqual([
      ['unrecorded_tool_call', 'unrecorded_tool_call', 'flag', 'lookup_order'],
      ['unrecorded_tool_call', 'unrecorded_tool_call', 'flag', 'get_weather'],
    ]);
    expect(record.status).toBe('passed');
  });

  it('sends the served results back to the agent as tool messages in call order', async () => {
    // Prepare
    const trace = loadTrace('multi-lookup-trace');
    const agent = scriptedAgent([[call('lookup_order', { order_id: '1' }), call('lookup_order', { order_id: '2' })]]);
    // Act
    await runOne(trace, makeCampaign(), agent);
    // Assess
    const last = agent.requests[1].messages;
    expect(last.slice(-3)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'c1_0', name: 'lookup_order', arguments: { order_id: '1' } },
          { id: 'c1_1', name: 'lookup_order', arguments: { order_id: '2' } },
        ],
      },
      { role: 'tool', tool_call_id: 'c1_0', name: 'lookup_order', content: { order_id: '1', total: 10 } },
      { role: 'tool', tool_call_id: 'c1_1', name: 'lookup_order', content: { error: 'order 2 is archived' } },
    ]);
  });
});
