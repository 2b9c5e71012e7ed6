// The key that signs pagination cursors, from where the deployment keeps it (docs/security.md#the-cursor-signing-key):
// RTS_CURSOR_SECRET (a plain value: local mode, tests), else the Secrets Manager secret RTS_CURSOR_SECRET_ARN names
// (the stack's list functions: read at run time through the Parameters and Secrets extension), else a random key kept
// in the table (local mode, and deployments without a secret).
import type { CursorKeysRepo } from '../../core/ports';
import { DynamoConfigRepo } from '../dynamodb/config-repo';
import { optionalEnv } from '../env';
import { ExtensionSecret, type ExtensionSecretOptions } from './extension';

export type CursorKeysOptions = Omit<ExtensionSecretOptions, 'secretId'>;

export class CursorKeys implements CursorKeysRepo {
  private secret?: { id: string; reader: ExtensionSecret };
  private tableKey?: Promise<Buffer>;

  /** `options` tune the read of the secret (its refresh, the clock, the extension's port). */
  constructor(private readonly options: CursorKeysOptions = {}) {}

  async current(): Promise<Buffer> {
    const plain = optionalEnv('RTS_CURSOR_SECRET');
    if (plain) return Buffer.from(plain, 'utf8');
    const secretId = optionalEnv('RTS_CURSOR_SECRET_ARN');
    if (secretId) {
      if (this.secret?.id !== secretId) this.secret = { id: secretId, reader: new ExtensionSecret({ ...this.options, secretId }) };
      return Buffer.from(await this.secret.reader.value(), 'utf8');
    }
    // The table's key never changes once stored (first writer wins), so it is kept for the life of the process.
    this.tableKey ??= new DynamoConfigRepo().cursorSecret().catch((err: unknown) => {
      this.tableKey = undefined;
      throw err;
    });
    return this.tableKey;
  }
}
