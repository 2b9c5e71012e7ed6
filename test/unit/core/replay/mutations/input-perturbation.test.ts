import { DEFAULT_APPENDED_TEXT, perturbInput } from '../../../../../functions/core/replay/mutations/input-perturbation';
import { loadTrace, makeCampaign, runOne, scriptedAgent } from '../../../../helpers/replay-fakes';

const TEXT = 'Please refund order 1234, the parcel arrived damaged and nobody answered my emails.';
const m = (kind: 'typos' | 'uppercase' | 'whitespace' | 'append', text?: string) => ({ id: 'p', type: 'input_perturbation' as const, kind, text });

describe('mutation input_perturbation', () => {
  it('uppercases the user message', () => {
    expect(perturbInput(m('uppercase'), 'Refund 12 please')).toBe('REFUND 12 PLEASE');
  });

  it('appends the given text, or a default one', () => {
    expect(perturbInput(m('append', 'Be quick.'), 'Hi')).toBe('Hi\n\nBe quick.');
    expect(perturbInput(m('append'), 'Hi')).toBe(`Hi\n\n${DEFAULT_APPENDED_TEXT}`);
  });

  it('adds whitespace noise without changing the words', () => {
    // Act
    const out = perturbInput(m('whitespace'), TEXT);
    // Assess
    expect(out).not.toBe(TEXT);
    expect(out.split(/\s+/).filter(Boolean)).toEqual(TEXT.split(' '));
  });

  it('introduces typos that keep the text recognisable', () => {
    // Act
    const out = perturbInput(m('typos'), TEXT);
    // Assess
    expect(out).not.toBe(TEXT);
    expect(out[0]).toBe(TEXT[0]);
    expect(Math.abs(out.length - TEXT.length)).toBeLessThanOrEqual(TEXT.split(' ').length);
    expect(out).toContain('1234');
  });

  it('is deterministic for the same mutation id and text, and varies with the id', () => {
    // Act
    const a = perturbInput(m('typos'), TEXT);
    const b = perturbInput(m('typos'), TEXT);
    const other = perturbInput({ ...m('typos'), id: 'another-id' }, TEXT);
    // Assess
    expect(a).toBe(b);
    expect(other).not.toBe(a);
  });

  it('leaves text without words of four letters unchanged under typos', () => {
    expect(perturbInput(m('typos'), 'hi 12 ok')).toBe('hi 12 ok');
  });

  it('is applied to user messages (not system ones) of the conversation sent to the agent', async () => {
    // Prepare
    const trace = loadTrace('refund-trace');
    const campaign = makeCampaign({ mutations: [m('uppercase')] });
    const agent = scriptedAgent([]);
    // Act
    const record = await runOne(trace, campaign, agent, 'p');
    // Assess
    expect(agent.requests[0].messages).toEqual([
      { role: 'system', content: 'You are a support agent.' },
      { role: 'user', content: 'PLEASE REFUND ORDER 1234, THE PARCEL ARRIVED DAMAGED.' },
    ]);
    expect(record.transcript[1]).toEqual({ type: 'message', role: 'user', content: 'PLEASE REFUND ORDER 1234, THE PARCEL ARRIVED DAMAGED.' });
  });
});
