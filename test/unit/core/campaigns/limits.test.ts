// target.limits and judge.limits: every out-of-range or mistyped value is a 422 naming its field; good values pass
// and are kept; the recorded target calls nothing and takes no limits.
import { campaignInputSchema } from '../../../../functions/core/campaigns/schema';
import { ValidationError } from '../../../../functions/core/errors';
import { validate } from '../../../../functions/http-chain/route';

function rejection(body: unknown): ValidationError {
  try {
    validate(campaignInputSchema, body);
  } catch (err) {
    if (err instanceof ValidationError) return err;
    throw err;
  }
  throw new Error('expected a ValidationError');
}

const http = (limits: unknown) => ({ name: 'c', target: { type: 'http', url: 'https://agent.example.com/step', limits } });
const openai = (limits: unknown) => ({ name: 'c', target: { type: 'openai', base_url: 'https://llm.example.com/v1', model: 'm', limits } });
const judged = (limits: unknown) => ({
  name: 'c',
  target: { type: 'http', url: 'https://agent.example.com/step' },
  judge: { type: 'openai', base_url: 'https://judge.example.com/v1', model: 'j', limits },
  criteria: [{ type: 'llm_judge', rubric: 'polite' }],
});

describe('campaign limits', () => {
  it.each([
    [http, 'target', { max_concurrency: 0 }, 'max_concurrency'],
    [http, 'target', { max_concurrency: 1001 }, 'max_concurrency'],
    [http, 'target', { max_concurrency: 2.5 }, 'max_concurrency'],
    [openai, 'target', { requests_per_minute: 0 }, 'requests_per_minute'],
    [openai, 'target', { requests_per_minute: 100001 }, 'requests_per_minute'],
    [openai, 'target', { requests_per_minute: '60' }, 'requests_per_minute'],
    [http, 'target', { max_wait_s: -1 }, 'max_wait_s'],
    [http, 'target', { max_wait_s: 3601 }, 'max_wait_s'],
    [openai, 'target', { key: '' }, 'key'],
    [openai, 'target', { key: 'k'.repeat(201) }, 'key'],
    [openai, 'target', { key: 7 }, 'key'],
    [judged, 'judge', { max_concurrency: 0 }, 'max_concurrency'],
    [judged, 'judge', { requests_per_minute: 1e6 }, 'requests_per_minute'],
    [judged, 'judge', { max_wait_s: 1.5 }, 'max_wait_s'],
    [judged, 'judge', { key: '' }, 'key'],
  ])('refuses %p %s.limits %j with 422 naming the field', (make, party, limits, field) => {
    const err = rejection(make(limits));
    expect([err.status, err.code]).toEqual([422, 'validation_error']);
    expect(err.details?.map((d) => d.path)).toContain(`${party}.limits.${field}`);
  });

  it.each([http, openai, judged])('refuses limits that are not an object (%p)', (make) => {
    const err = rejection(make([]));
    expect(err.details?.[0].path).toMatch(/^(target|judge)\.limits$/);
  });

  it("accepts the ranges' ends and keeps the values", () => {
    const limits = { max_concurrency: 1000, requests_per_minute: 1, max_wait_s: 0, key: 'shared-gpt-quota' };
    expect(validate(campaignInputSchema, openai(limits)).target).toMatchObject({ limits });
    expect(validate(campaignInputSchema, judged({ max_concurrency: 1, requests_per_minute: 100000, max_wait_s: 3600 })).judge?.limits).toEqual({
      max_concurrency: 1,
      requests_per_minute: 100000,
      max_wait_s: 3600,
    });
    expect(validate(campaignInputSchema, http({})).target).toMatchObject({ limits: {} });
  });

  it('gives the recorded target no limits (it calls nothing)', () => {
    const parsed = validate(campaignInputSchema, { name: 'c', target: { type: 'recorded', limits: { max_concurrency: 2 } } });
    expect(parsed.target).toEqual({ type: 'recorded' });
  });
});
