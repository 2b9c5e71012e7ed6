// Reads a Secrets Manager secret through the AWS Parameters and Secrets Lambda Extension, the layer's HTTP endpoint on
// localhost, so a function carries no Secrets Manager client. The value is kept in memory and read again once it is
// `refreshMs` old, so a rotated secret reaches every running container within that time (docs/security.md).
import { request } from 'node:http';
import { optionalEnv, requireEnv } from '../env';

/** The extension's default port (its PARAMETERS_SECRETS_EXTENSION_HTTP_PORT setting overrides it). */
export const EXTENSION_DEFAULT_PORT = 2773;
/** The header that proves the caller runs in the function's sandbox: the value is the function's session token. */
export const EXTENSION_TOKEN_HEADER = 'X-Aws-Parameters-Secrets-Token';
/** Secrets Manager's largest secret is 64 KiB; an answer past twice that is not the extension's. */
const MAX_ANSWER_BYTES = 128 * 1024;

export interface ExtensionSecretOptions {
  /** The secret's ARN or name. */
  secretId: string;
  /** How long a value read is served before it is read again, in ms. @default 300000 (5 minutes) */
  refreshMs?: number;
  /** Milliseconds since the epoch (tests pass their own clock). @default Date.now */
  now?: () => number;
  /** The extension's port. @default PARAMETERS_SECRETS_EXTENSION_HTTP_PORT, else 2773 */
  port?: number;
  /** How long one read may take, in ms. @default 5000 */
  timeoutMs?: number;
}

/**
 * A secret that could not be read. Shaped like an AWS SDK error (`$metadata.httpStatusCode`, a `cause` carrying the
 * network error's code) so adapters/errors.ts tells a transient fault (503) from a refusal. Its message names the
 * secret and the reason, never the value.
 */
export class SecretReadError extends Error {
  readonly $metadata: { httpStatusCode?: number };

  constructor(message: string, status?: number, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'SecretReadError';
    this.$metadata = { httpStatusCode: status };
  }
}

/** One secret read through the extension, cached per process (one Lambda container) for `refreshMs`. */
export class ExtensionSecret {
  private cached?: { value: string; readAt: number };
  private reading?: Promise<string>;
  private readonly refreshMs: number;
  private readonly now: () => number;

  constructor(private readonly opts: ExtensionSecretOptions) {
    this.refreshMs = opts.refreshMs ?? 5 * 60_000;
    this.now = opts.now ?? Date.now;
  }

  /** The secret's SecretString: the cached one while fresh, else read again (concurrent callers share one read). */
  async value(): Promise<string> {
    const startedAt = this.now();
    if (this.cached && startedAt - this.cached.readAt < this.refreshMs) return this.cached.value;
    this.reading ??= this.read()
      .then((value) => {
        this.cached = { value, readAt: startedAt };
        return value;
      })
      .finally(() => {
        this.reading = undefined;
      });
    return this.reading;
  }

  private read(): Promise<string> {
    const { secretId } = this.opts;
    const port = this.opts.port ?? Number(optionalEnv('PARAMETERS_SECRETS_EXTENSION_HTTP_PORT') ?? EXTENSION_DEFAULT_PORT);
    const timeoutMs = this.opts.timeoutMs ?? 5000;
    const fail = (reason: string, status?: number, cause?: unknown) =>
      new SecretReadError(`reading secret ${secretId} through the Parameters and Secrets extension failed: ${reason}`, status, cause);
    let token: string;
    try {
      // Lambda sets it for every function; the extension refuses a request without it.
      token = requireEnv('AWS_SESSION_TOKEN');
    } catch (err) {
      return Promise.reject(fail((err as Error).message));
    }
    return new Promise<string>((resolve, reject) => {
      // Settles once: the first outcome wins, and the timer goes with it.
      const settle = (err: SecretReadError | undefined, value?: string) => {
        clearTimeout(timer);
        if (err) reject(err);
        else resolve(value!);
      };
      const asReadError = (err: NodeJS.ErrnoException) => (err instanceof SecretReadError ? err : fail(err.code ?? err.message, undefined, err));
      const req = request(
        {
          host: 'localhost',
          port,
          method: 'GET',
          path: `/secretsmanager/get?secretId=${encodeURIComponent(secretId)}`,
          headers: { [EXTENSION_TOKEN_HEADER]: token },
          // A fresh connection per read (one every few minutes): a kept-alive socket may have been closed while the
          // container was frozen.
          agent: false,
        },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > MAX_ANSWER_BYTES) req.destroy(fail(`answer larger than ${MAX_ANSWER_BYTES} bytes`, res.statusCode));
            else chunks.push(chunk);
          });
          res.on('error', (err) => settle(asReadError(err)));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            const status = res.statusCode ?? 0;
            // An error answer holds the reason (access denied, not found, not ready), never the secret: it may be shown.
            if (status !== 200) return settle(fail(`HTTP ${status}: ${text.slice(0, 300).trim()}`, status));
            // A success answer holds the secret: nothing of it goes into a message.
            let secret: unknown;
            try {
              secret = (JSON.parse(text) as { SecretString?: unknown }).SecretString;
            } catch {
              return settle(fail('the answer is not JSON', status));
            }
            if (typeof secret !== 'string' || secret === '') return settle(fail('the secret has no SecretString (a binary secret?)', status));
            settle(undefined, secret);
          });
        },
      );
      const timer = setTimeout(() => {
        req.destroy(fail(`no answer within ${timeoutMs} ms`, undefined, Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' })));
      }, timeoutMs);
      req.on('error', (err) => settle(asReadError(err)));
      req.end();
    });
  }
}
