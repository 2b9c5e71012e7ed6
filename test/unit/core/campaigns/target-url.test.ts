// Target and judge URLs: credentials (user:password@, secret-named query parameters) are refused with a 422 naming
// the field, and a campaign stored before that rule shows them masked.
import { redactCampaign } from '../../../../functions/core/campaigns/redact';
import { campaignInputSchema, type Campaign } from '../../../../functions/core/campaigns/schema';
import { isSecretParamName } from '../../../../functions/core/campaigns/target-url';
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

const httpCampaign = (url: string) => ({ name: 'c', target: { type: 'http', url } });
const openaiCampaign = (base_url: string) => ({ name: 'c', target: { type: 'openai', base_url, model: 'm' } });
const judgedCampaign = (base_url: string) => ({
  name: 'c',
  target: { type: 'http', url: 'https://agent.example.com/step' },
  judge: { type: 'openai', base_url, model: 'm' },
  criteria: [{ type: 'llm_judge', rubric: 'polite' }],
});

describe('campaign target and judge URLs', () => {
  it.each([
    ['target.url', httpCampaign('https://user:pass@agent.example.com/step'), 'credentials'],
    ['target.url', httpCampaign('https://user@agent.example.com/step'), 'credentials'],
    ['target.base_url', openaiCampaign('https://sk-123:x@llm.example.com/v1'), 'credentials'],
    ['judge.base_url', judgedCampaign('http://u:p@judge.example.com/v1'), 'credentials'],
    ['target.url', httpCampaign('https://agent.example.com/step?api_key=sk-live-1'), 'api_key'],
    ['target.url', httpCampaign('https://agent.example.com/step?x=1&Access_Token=abc'), 'headers'],
    ['target.base_url', openaiCampaign('https://llm.example.com/v1?KEY=abc'), 'api_key field'],
    ['target.base_url', openaiCampaign('https://llm.example.com/v1?sig=abc&se=2026'), 'sig'],
    ['judge.base_url', judgedCampaign('https://judge.example.com/v1?apikey=abc'), 'apikey'],
    ['judge.base_url', judgedCampaign('https://judge.example.com/v1?client-secret=abc'), 'client-secret'],
  ])('refuses %s carrying a secret (%#) with 422 validation_error naming the field', (path, body, mentions) => {
    // Act
    const err = rejection(body);

    // Assess
    expect(err.status).toBe(422);
    expect(err.code).toBe('validation_error');
    expect(err.details?.[0].path).toBe(path);
    expect(err.details?.[0].message).toContain(path);
    expect(err.details?.[0].message).toContain(mentions);
  });

  it.each([
    'https://agent.example.com/step',
    'https://agent.example.com/step?region=eu&version=2&monkey=1',
    'http://127.0.0.1:9000/rts/step?debug=true',
  ])('accepts %s', (url) => {
    expect(() => validate(campaignInputSchema, httpCampaign(url))).not.toThrow();
  });

  it.each(['api_key', 'APIKEY', 'api-key', 'Token', 'access_token', 'secret', 'password', 'sig', 'Signature', 'X-Amz-Signature', 'key'])(
    'treats query parameter %s as a secret',
    (name) => expect(isSecretParamName(name)).toBe(true),
  );

  it.each(['region', 'version', 'model', 'monkey', 'page', 'q'])('does not treat %s as a secret', (name) =>
    expect(isSecretParamName(name)).toBe(false),
  );

  it('masks credentials left in the URLs of a campaign stored before they were refused', () => {
    // Prepare
    const stored = {
      campaign_id: 'c1',
      created_at: '2026-11-21T23:59:01.123456+00:00',
      eval_set: { trace_count: 0, min_scenarios: 0 },
      ...validate(campaignInputSchema, judgedCampaign('https://judge.example.com/v1')),
    } as Campaign;
    const legacy = {
      ...stored,
      target: { type: 'http', url: 'https://bob:hunter2@agent.example.com/step?token=tok-9&x=1', timeout_ms: 30000 },
      judge: { ...stored.judge!, base_url: 'https://judge.example.com/v1?api_key=sk-judge' },
    } as Campaign;

    // Act
    const shown = JSON.stringify(redactCampaign(legacy));

    // Assess
    for (const secret of ['bob', 'hunter2', 'tok-9', 'sk-judge']) expect(shown).not.toContain(secret);
    expect(shown).toContain('x=1');
  });
});
