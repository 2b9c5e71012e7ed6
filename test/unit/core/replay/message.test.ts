// The replay queue's message body as the worker and the dead-letter consumer read it: ids required, the rest kept only when whole.
import fc from 'fast-check';
import { parseReplayMessage } from '../../../../functions/core/replay/message';
import type { ReplayMessage } from '../../../../functions/core/ports';

const ids = { project_id: 'p1', run_id: 'r1' };
const replays = { trace_id: 't1', campaign_id: 'c1', campaign_version: 2 };

describe('parseReplayMessage', () => {
  it.each([
    ['ids only', ids, ids],
    ['a part', { ...ids, part: 3 }, { ...ids, part: 3 }],
    ['what the run replays', { ...ids, replays }, { ...ids, replays }],
    ['a part that is not a whole number, dropped', { ...ids, part: 1.5, replays }, { ...ids, replays }],
    ['replays without a trace, dropped', { ...ids, replays: { ...replays, trace_id: '' } }, ids],
    ['replays with version 0, dropped', { ...ids, replays: { ...replays, campaign_version: 0 } }, ids],
    ['replays with a version as text, dropped', { ...ids, replays: { ...replays, campaign_version: '2' } }, ids],
    ['replays that is not an object, dropped', { ...ids, replays: 'x' }, ids],
    ['fields of its own in replays, dropped', { ...ids, replays: { ...replays, more: 1 } }, { ...ids, replays }],
  ])('reads %s', (_name, body, expected) => {
    expect(parseReplayMessage(JSON.stringify(body))).toEqual(expected);
  });

  it.each([
    ['not JSON', '{'],
    ['null', 'null'],
    ['no run id', JSON.stringify({ project_id: 'p1' })],
    ['an empty project id', JSON.stringify({ project_id: '', run_id: 'r1' })],
  ])('answers null for %s', (_name, body) => {
    expect(parseReplayMessage(body)).toBeNull();
  });

  it('reads back every message the service sends', () => {
    const id = fc.string({ minLength: 1, maxLength: 40 });
    const message = fc.record(
      {
        project_id: id,
        run_id: id,
        part: fc.nat(),
        replays: fc.record({ trace_id: id, campaign_id: id, campaign_version: fc.integer({ min: 1, max: 1e6 }) }),
      },
      { requiredKeys: ['project_id', 'run_id'] },
    );
    fc.assert(fc.property(message, (m: ReplayMessage) => expect(parseReplayMessage(JSON.stringify(m))).toEqual(m)));
  });
});
