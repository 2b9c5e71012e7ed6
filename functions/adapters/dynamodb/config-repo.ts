// Deployment-wide settings kept in the table (keys.ts pattern 20): today the key that signs pagination cursors.
import { randomBytes } from 'node:crypto';
import { keys } from './keys';
import { getItem, putNew } from './table';

export class DynamoConfigRepo {
  /**
   * The cursor-signing secret: created once with a conditional put (first writer wins), then read by every function
   * of the deployment, so all of them sign and verify with the same key without extra infrastructure.
   */
  async cursorSecret(): Promise<Buffer> {
    const Key = keys.config('cursor');
    const found = await getItem(Key, true);
    if (found?.secret) return Buffer.from(String(found.secret), 'base64');
    const secret = randomBytes(32).toString('base64');
    // A lost answer of our own put reads back our own secret: either way the stored one is the key.
    await putNew({ ...Key, entity: 'config', secret });
    const stored = await getItem(Key, true);
    return Buffer.from(String(stored?.secret ?? secret), 'base64');
  }
}
