// Webhook request bodies: https-only URLs, known event types or ["*"], defaults, and the 422 details the HTTP edge returns.
import { ValidationError } from '../../../../functions/core/errors';
import { EVENT_TYPES } from '../../../../functions/core/events';
import { webhookCreateSchema, webhookPatchSchema } from '../../../../functions/core/webhooks/schema';
import { validate } from '../../../../functions/http-chain/route';

function rejection(schema: typeof webhookCreateSchema | typeof webhookPatchSchema, body: unknown): ValidationError {
  try {
    validate(schema, body);
  } catch (err) {
    if (err instanceof ValidationError) return err;
    throw err;
  }
  throw new Error('expected a ValidationError');
}

describe('webhook create body', () => {
  it.each([
    ['http://example.com/hook', 'https'],
    ['/relative/hook', 'absolute'],
    ['example.com/hook', 'absolute'],
    ['https://user:pass@example.com/hook', 'credentials'],
    ['https://user@example.com/hook', 'credentials'],
    ['ftp://example.com/hook', 'https'],
    ['javascript:alert(1)', 'https'],
  ])('rejects url %s with 422 validation_error and details[0].path "url"', (url, why) => {
    // Prepare / Act
    const err = rejection(webhookCreateSchema, { url, events: ['*'] });

    // Assess
    expect(err.status).toBe(422);
    expect(err.code).toBe('validation_error');
    expect(err.details?.[0].path).toBe('url');
    expect(err.details?.[0].message).toContain(why);
  });

  it('puts the url issue first even when events are wrong too', () => {
    const err = rejection(webhookCreateSchema, { events: [], url: 'http://example.com' });

    expect(err.details?.[0].path).toBe('url');
    expect(err.details?.map((d) => d.path)).toContain('events');
  });

  it('rejects a url that is not a string, and a missing url, at path "url"', () => {
    expect(rejection(webhookCreateSchema, { url: 42, events: ['*'] }).details?.[0].path).toBe('url');
    expect(rejection(webhookCreateSchema, { events: ['*'] }).details?.[0].path).toBe('url');
  });

  it('accepts an https URL with port, path and query, and defaults is_enabled to true and description to null', () => {
    const body = validate(webhookCreateSchema, { url: 'https://hooks.example.com:8443/rts?team=a', events: ['run.completed'], extra: 'ignored' });

    expect(body).toEqual({ url: 'https://hooks.example.com:8443/rts?team=a', events: ['run.completed'], is_enabled: true, description: null });
  });

  it('rejects an empty events list, an unknown type, and "*" mixed with types', () => {
    const url = 'https://example.com/h';
    expect(rejection(webhookCreateSchema, { url, events: [] }).details?.[0].path).toBe('events');
    const unknown = rejection(webhookCreateSchema, { url, events: ['run.completed', 'run.exploded'] });
    expect(unknown.details?.[0]).toMatchObject({ path: 'events.1' });
    expect(unknown.details?.[0].message).toContain('run.exploded');
    expect(rejection(webhookCreateSchema, { url, events: ['*', 'run.created'] }).details?.[0].path).toBe('events');
    expect(rejection(webhookCreateSchema, { url, events: 'run.created' }).details?.[0].path).toBe('events');
  });

  it('accepts every known event type and ["*"], folding duplicates', () => {
    const url = 'https://example.com/h';
    expect(validate(webhookCreateSchema, { url, events: [...EVENT_TYPES] }).events).toEqual([...EVENT_TYPES]);
    expect(validate(webhookCreateSchema, { url, events: ['*'] }).events).toEqual(['*']);
    expect(validate(webhookCreateSchema, { url, events: ['run.queued', 'run.queued'] }).events).toEqual(['run.queued']);
  });

  it('rejects a non-boolean is_enabled and an over-long description', () => {
    const url = 'https://example.com/h';
    expect(rejection(webhookCreateSchema, { url, events: ['*'], is_enabled: 'yes' }).details?.[0].path).toBe('is_enabled');
    expect(rejection(webhookCreateSchema, { url, events: ['*'], description: 'x'.repeat(501) }).details?.[0].path).toBe('description');
  });
});

describe('webhook patch body', () => {
  it('rejects an empty patch', () => {
    expect(rejection(webhookPatchSchema, {}).status).toBe(422);
  });

  it('applies the create rules to the fields it carries', () => {
    expect(rejection(webhookPatchSchema, { url: 'http://example.com' }).details?.[0].path).toBe('url');
    expect(rejection(webhookPatchSchema, { events: ['nope'] }).details?.[0].path).toBe('events.0');
  });

  it('accepts a pause alone, and clearing the description with null', () => {
    expect(validate(webhookPatchSchema, { is_enabled: false })).toEqual({ is_enabled: false });
    expect(validate(webhookPatchSchema, { description: null })).toEqual({ description: null });
  });
});
