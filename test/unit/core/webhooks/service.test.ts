// Webhook management: the secret is shown only by create and rotate, 25 per project, malformed ids are 404.
import { NotFoundError, ValidationError } from '../../../../functions/core/errors';
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listWebhookDeliveries,
  listWebhooks,
  rotateWebhookSecret,
  updateWebhook,
  type WebhookServiceDeps,
} from '../../../../functions/core/webhooks/service';
import { MemoryDeliveryLogRepo } from '../../../helpers/memory-delivery-log-repo';
import { MemoryWebhooksRepo } from '../../../helpers/memory-webhooks-repo';
import { PROJECT } from '../../../helpers/webhook-harness';

const OTHER_PROJECT = '6f1c1f5e-2a1d-4f4e-8b0a-7d3b9e6c2a10';

type Service = WebhookServiceDeps & { repo: MemoryWebhooksRepo; deliveryLog: MemoryDeliveryLogRepo };

function service(): Service {
  const repo = new MemoryWebhooksRepo();
  let ids = 0;
  let secrets = 0;
  return {
    repo,
    webhooks: repo,
    deliveryLog: new MemoryDeliveryLogRepo(),
    clock: { now: () => new Date('2026-11-21T12:00:00Z') },
    newWebhookId: () => `wh_${String(++ids).padStart(24, '0')}`,
    newSecret: () => `whsec_secret${++secrets}`,
  };
}

const input = { url: 'https://example.com/hook', events: ['run.completed'] as ['run.completed'], is_enabled: true, description: 'ops' };

describe('webhook service', () => {
  it('creates a webhook and returns its secret once', async () => {
    const svc = service();

    const created = await createWebhook(svc, PROJECT, input);

    expect(created).toEqual({
      webhook_id: 'wh_000000000000000000000001',
      url: 'https://example.com/hook',
      events: ['run.completed'],
      is_enabled: true,
      description: 'ops',
      secret: 'whsec_secret1',
      created_at: '2026-11-21T12:00:00.000000+00:00',
    });
  });

  it('never shows the secret on get or list, and shows the delivery status fields', async () => {
    const svc = service();
    const { webhook_id } = await createWebhook(svc, PROJECT, input);

    const got = await getWebhook(svc, PROJECT, webhook_id);
    const listed = await listWebhooks(svc, PROJECT, { limit: 50 });

    expect(got).not.toHaveProperty('secret');
    expect(got).toMatchObject({ last_error: null, last_error_at: null, last_delivery_at: null, last_status: null });
    expect(JSON.stringify(listed)).not.toContain('whsec_');
    expect(listed.items).toHaveLength(1);
  });

  it('refuses the 26th webhook of a project with 422 validation_error', async () => {
    const svc = service();
    for (let i = 0; i < 25; i++) await createWebhook(svc, PROJECT, input);

    const attempt = createWebhook(svc, PROJECT, input);

    await expect(attempt).rejects.toBeInstanceOf(ValidationError);
    await expect(attempt).rejects.toMatchObject({ status: 422, code: 'validation_error' });
    expect((await svc.repo.listAll(PROJECT)).length).toBe(25);
  });

  it('pauses and resumes through update', async () => {
    const svc = service();
    const { webhook_id } = await createWebhook(svc, PROJECT, input);

    const paused = await updateWebhook(svc, PROJECT, webhook_id, { is_enabled: false });
    const resumed = await updateWebhook(svc, PROJECT, webhook_id, { is_enabled: true, events: ['*'] });

    expect(paused.is_enabled).toBe(false);
    expect(resumed).toMatchObject({ is_enabled: true, events: ['*'], url: 'https://example.com/hook' });
  });

  it('rotates the secret, returning the new one, which replaces the stored one', async () => {
    const svc = service();
    const { webhook_id, secret } = await createWebhook(svc, PROJECT, input);

    const rotated = await rotateWebhookSecret(svc, PROJECT, webhook_id);

    expect(rotated.webhook_id).toBe(webhook_id);
    expect(rotated.secret).not.toBe(secret);
    expect((await svc.repo.get(PROJECT, webhook_id))?.secret).toBe(rotated.secret);
  });

  it('deletes a webhook, after which it is not found', async () => {
    const svc = service();
    const { webhook_id } = await createWebhook(svc, PROJECT, input);

    await deleteWebhook(svc, PROJECT, webhook_id);

    await expect(getWebhook(svc, PROJECT, webhook_id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(deleteWebhook(svc, PROJECT, webhook_id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it.each([
    ['get', (svc: Service, id: string) => getWebhook(svc, PROJECT, id)],
    ['update', (svc: Service, id: string) => updateWebhook(svc, PROJECT, id, { is_enabled: false })],
    ['delete', (svc: Service, id: string) => deleteWebhook(svc, PROJECT, id)],
    ['rotate', (svc: Service, id: string) => rotateWebhookSecret(svc, PROJECT, id)],
    ['deliveries', (svc: Service, id: string) => listWebhookDeliveries(svc, PROJECT, id, { limit: 10 })],
  ])("answers 404 to %s with a malformed id, an unknown id, or another project's webhook", async (_op, op) => {
    const svc = service();
    const theirs = await createWebhook(svc, OTHER_PROJECT, input);

    for (const id of ['not-an-id', 'wh_UPPERCASE0000000000000000', 'wh_000000000000000000000099', theirs.webhook_id]) {
      await expect(op(svc, id)).rejects.toMatchObject({ status: 404, code: 'not_found' });
    }
  });
});
