// ExtensionSecret against a loopback stand-in for the Parameters and Secrets extension: the request it makes, the
// per-container cache and its refresh, and failures that are clear and never carry the secret.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ExtensionSecret, SecretReadError } from '../../../../functions/adapters/secrets/extension';
import { isThrottlingError, isTransientError } from '../../../../functions/adapters/errors';
import { startSecretsExtension, type SecretsExtension } from '../../../helpers/secrets-extension';

const ARN = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:CursorSecret-AbC123';
const TOKEN = 'session-token-of-this-sandbox';
const KEY = 'k3y-that-must-never-be-printed-0123456789';
const MINUTE = 60_000;

let extension: SecretsExtension;
let now: number;
const reader = (opts: { refreshMs?: number; timeoutMs?: number; port?: number } = {}) =>
  new ExtensionSecret({ secretId: ARN, port: extension.port, now: () => now, ...opts });

beforeAll(async () => {
  extension = await startSecretsExtension({ token: TOKEN });
});
afterAll(() => extension.close());
beforeEach(() => {
  process.env.AWS_SESSION_TOKEN = TOKEN;
  delete process.env.PARAMETERS_SECRETS_EXTENSION_HTTP_PORT;
  extension.requests.length = 0;
  extension.fail(undefined);
  extension.setSecret(ARN, KEY);
  now = Date.parse('2030-01-01T00:00:00Z');
});
afterAll(() => {
  delete process.env.AWS_SESSION_TOKEN;
});

/** The error `promise` rejects with (the test fails when it resolves). */
async function failureOf(promise: Promise<unknown>): Promise<SecretReadError> {
  const outcome = await promise.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(outcome).toBeInstanceOf(SecretReadError);
  return outcome as SecretReadError;
}

describe('ExtensionSecret: the request', () => {
  it('asks GET /secretsmanager/get for the secret by its ARN, with the session token in X-Aws-Parameters-Secrets-Token', async () => {
    // Act
    const value = await reader().value();

    // Assess
    expect(value).toBe(KEY);
    expect(extension.requests).toEqual([{ method: 'GET', path: '/secretsmanager/get', secretId: ARN, token: TOKEN }]);
  });

  it('finds the extension on the port its PARAMETERS_SECRETS_EXTENSION_HTTP_PORT setting names', async () => {
    // Prepare
    process.env.PARAMETERS_SECRETS_EXTENSION_HTTP_PORT = String(extension.port);

    // Act
    const value = await new ExtensionSecret({ secretId: ARN }).value();

    // Assess
    expect(value).toBe(KEY);
    expect(extension.requests).toHaveLength(1);
  });
});

describe('ExtensionSecret: the cache', () => {
  it('reads once per container while the value is fresh, and shares one read among concurrent callers', async () => {
    // Prepare
    const secret = reader({ refreshMs: 5 * MINUTE });

    // Act
    const first = await Promise.all(Array.from({ length: 10 }, () => secret.value()));
    now += 5 * MINUTE - 1;
    const later = await secret.value();

    // Assess
    expect(new Set([...first, later])).toEqual(new Set([KEY]));
    expect(extension.requests).toHaveLength(1);
  });

  it('reads again once the value is refreshMs old, so a rotated secret reaches every container within that time', async () => {
    // Prepare: two containers that read the key before the rotation
    const containers = [reader({ refreshMs: 5 * MINUTE }), reader({ refreshMs: 5 * MINUTE })];
    await Promise.all(containers.map((c) => c.value()));
    extension.setSecret(ARN, 'the-rotated-key');

    // Act
    now += 4 * MINUTE;
    const before = await Promise.all(containers.map((c) => c.value()));
    now += MINUTE;
    const after = await Promise.all(containers.map((c) => c.value()));

    // Assess
    expect(before).toEqual([KEY, KEY]);
    expect(after).toEqual(['the-rotated-key', 'the-rotated-key']);
    expect(extension.requests).toHaveLength(4);
  });

  it('keeps no failed read: the next call reads again and succeeds', async () => {
    // Prepare
    const secret = reader();
    extension.fail({ status: 500, body: 'internal error' });
    await failureOf(secret.value());
    extension.fail(undefined);

    // Act
    const value = await secret.value();

    // Assess
    expect(value).toBe(KEY);
    expect(extension.requests).toHaveLength(2);
  });

  it('serves no stale key past its refresh: a failed refresh fails', async () => {
    // Prepare
    const secret = reader({ refreshMs: MINUTE });
    await secret.value();
    extension.fail({ status: 503, body: 'unavailable' });
    now += MINUTE;

    // Act
    const err = await failureOf(secret.value());

    // Assess
    expect(err.message).toContain('HTTP 503');
  });
});

describe('ExtensionSecret: failures', () => {
  it('names the secret and the refusal (HTTP 400 from Secrets Manager: not found, access denied); not a transient fault', async () => {
    // Prepare
    extension.setSecret(ARN, KEY);
    const unknown = new ExtensionSecret({ secretId: `${ARN}-gone`, port: extension.port });

    // Act
    const err = await failureOf(unknown.value());

    // Assess
    expect(err.message).toBe(
      `reading secret ${ARN}-gone through the Parameters and Secrets extension failed: HTTP 400: ResourceNotFoundException: Secrets Manager can't find the specified secret.`,
    );
    expect(isTransientError(err)).toBe(false);
  });

  it('is refused without the sandbox token, and says so before asking when AWS_SESSION_TOKEN is unset', async () => {
    // Prepare
    process.env.AWS_SESSION_TOKEN = 'another-token';
    const refused = await failureOf(reader().value());
    delete process.env.AWS_SESSION_TOKEN;

    // Act
    const unset = await failureOf(reader().value());

    // Assess
    expect(refused.message).toContain('HTTP 401');
    expect(unset.message).toContain('Missing required environment variable AWS_SESSION_TOKEN');
    expect(extension.requests).toHaveLength(1);
  });

  it.each([
    [500, 'a transient fault (503 to the caller)', true, false],
    [429, 'throttling (429 to the caller)', false, true],
  ])('classifies an extension answering %i as %s', async (status, _what, transient, throttling) => {
    // Prepare
    extension.fail({ status, body: 'failure' });

    // Act
    const err = await failureOf(reader().value());

    // Assess
    expect([isTransientError(err), isThrottlingError(err)]).toEqual([transient, throttling]);
  });

  it('fails as a transient fault when nothing listens on the port', async () => {
    // Prepare: a port that was just free
    const probe: Server = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));

    // Act
    const err = await failureOf(reader({ port }).value());

    // Assess
    expect(err.message).toMatch(/extension failed: ECONNREFUSED$/);
    expect(isTransientError(err)).toBe(true);
  });

  it('fails within timeoutMs when the extension does not answer', async () => {
    // Prepare
    extension.fail({ hold: true });
    const started = Date.now();

    // Act
    const err = await failureOf(reader({ timeoutMs: 200 }).value());

    // Assess
    expect(Date.now() - started).toBeLessThan(2000);
    expect(err.message).toContain('no answer within 200 ms');
    expect(isTransientError(err)).toBe(true);
  });

  it('refuses a secret without a SecretString (a binary secret)', async () => {
    // Prepare
    extension.setSecret(ARN, '');

    // Act
    const err = await failureOf(reader().value());

    // Assess
    expect(err.message).toContain('has no SecretString');
  });
});

describe('ExtensionSecret: the key stays secret', () => {
  it('prints nothing and puts no part of the key into an error, even of an answer it cannot read', async () => {
    // Prepare: everything written to stdout or stderr meanwhile, and an answer that holds the key but is not JSON
    const written: string[] = [];
    const spies = [process.stdout, process.stderr].map((stream) =>
      jest.spyOn(stream, 'write').mockImplementation((chunk: string | Uint8Array) => {
        written.push(String(chunk));
        return true;
      }),
    );
    const echo = createServer((_req, res) => res.writeHead(200).end(`{"SecretString": "${KEY}"`));
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));

    try {
      // Act
      const read = await reader().value();
      const broken = await failureOf(reader({ port: (echo.address() as AddressInfo).port }).value());

      // Assess
      expect(read).toBe(KEY);
      expect(broken.message).toContain('the answer is not JSON');
      expect(JSON.stringify({ message: broken.message, stack: broken.stack, cause: String(broken.cause) })).not.toContain(KEY);
      expect(written.join('')).not.toContain(KEY.slice(0, 8));
    } finally {
      spies.forEach((s) => s.mockRestore());
      await new Promise<void>((resolve) => echo.close(() => resolve()));
    }
  });
});
