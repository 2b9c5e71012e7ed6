// A stand-in for the AWS Parameters and Secrets Lambda Extension on loopback: the HTTP endpoint a function calls
// (`GET /secretsmanager/get?secretId=...` with `X-Aws-Parameters-Secrets-Token`), answering as the extension does, from
// secrets held here. Test-only: the adapter's tests and the bundles' run (test/helpers/bundle-runner.ts).
import { randomUUID } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ExtensionRequest {
  method: string;
  /** The path without the query. */
  path: string;
  secretId: string | null;
  token: string | undefined;
}

export interface SecretsExtension {
  port: number;
  /** Every request, in order. */
  readonly requests: ExtensionRequest[];
  /** Sets (or replaces: a rotation) the SecretString of a secret, by its ARN or name. */
  setSecret(secretId: string, value: string): void;
  /**
   * Answers the next requests with `status` and `body` instead of the secret (an outage, a refusal); `hold: true`
   * never answers them (a hung extension). `undefined` restores normal answers.
   */
  fail(answer?: { status: number; body: string } | { hold: true }): void;
  close(): Promise<void>;
}

/** Starts the stand-in on 127.0.0.1 (an OS-chosen port); it accepts only `token`, as the extension accepts only the sandbox's session token. */
export async function startSecretsExtension(opts: { token: string }): Promise<SecretsExtension> {
  const secrets = new Map<string, string>();
  const requests: ExtensionRequest[] = [];
  const held: ServerResponse[] = [];
  let failure: { status: number; body: string } | { hold: true } | undefined;

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const token = req.headers['x-aws-parameters-secrets-token'] as string | undefined;
    const secretId = url.searchParams.get('secretId');
    requests.push({ method: req.method ?? '', path: url.pathname, secretId, token });
    const answer = (status: number, body: string) => res.writeHead(status, { 'content-type': 'text/plain' }).end(body);
    if (failure && 'hold' in failure) return void held.push(res);
    if (failure) return answer(failure.status, failure.body);
    if (token !== opts.token) return answer(401, 'missing or invalid X-Aws-Parameters-Secrets-Token header');
    if (req.method !== 'GET' || url.pathname !== '/secretsmanager/get' || !secretId) return answer(400, 'bad request');
    const value = secrets.get(secretId);
    if (value === undefined) return answer(400, "ResourceNotFoundException: Secrets Manager can't find the specified secret.");
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        ARN: secretId,
        Name: secretId.split(':').pop(),
        VersionId: randomUUID(),
        SecretString: value,
        VersionStages: ['AWSCURRENT'],
        CreatedDate: new Date().toISOString(),
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    requests,
    setSecret: (secretId, value) => void secrets.set(secretId, value),
    fail: (answer) => {
      failure = answer;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of held) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
