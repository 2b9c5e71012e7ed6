// Test data builders: small valid traces and campaigns.
import { randomUUID } from 'node:crypto';

export function sampleTrace(overrides: Record<string, unknown> = {}) {
  return {
    name: 'refund order 1234',
    agent: { name: 'support-bot', version: '1.4.2' },
    model: { provider: 'openai', name: 'gpt-4o-mini' },
    tools: [
      { name: 'lookup_order', description: 'Find an order', parameters: { type: 'object', properties: { order_id: { type: 'string' } } } },
      {
        name: 'refund_order',
        description: 'Refund an order',
        parameters: { type: 'object', properties: { order_id: { type: 'string' }, amount: { type: 'number' } } },
      },
    ],
    steps: [
      { role: 'system', content: 'You are a support agent.' },
      { role: 'user', content: 'Please refund order 1234' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', name: 'lookup_order', arguments: { order_id: '1234' } }] },
      { role: 'tool', tool_call_id: 'call_1', name: 'lookup_order', content: { status: 'delivered', total: 42.5 }, duration_ms: 120 },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_2', name: 'refund_order', arguments: '{"order_id":"1234","amount":42.5}' }] },
      { role: 'tool', tool_call_id: 'call_2', name: 'refund_order', content: { refunded: true }, duration_ms: 80 },
      { role: 'assistant', content: 'Your refund of $42.50 is on its way.' },
    ],
    metadata: { env: 'test' },
    tags: ['refund'],
    ...overrides,
  };
}

export function recordedCampaign(overrides: Record<string, unknown> = {}) {
  return {
    name: 'refund audit',
    target: { type: 'recorded' },
    policies: [{ id: 'no-delete', type: 'deny_tools', tools: ['delete_*'] }],
    criteria: [
      { type: 'tool_called', tool: 'refund_order' },
      { type: 'output_contains', value: 'refund' },
    ],
    ...overrides,
  };
}

export const uuid = () => randomUUID();
