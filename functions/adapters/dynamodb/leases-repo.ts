// Expiring slot leases (access pattern 26 of keys.ts): one item per slot a project holds in a scope. A take reads the
// scope's slots (strongly consistent), then claims a free or expired one with a conditional put, so two containers
// never hold the same slot; a lease nobody releases ends by itself at its time.
import type { LeasesRepo } from '../../core/ports';
import { keys } from './keys';
import { deleteIf, putIf, queryAll } from './table';

/** Free slots tried before a contended scope answers "all held" (each loss means another container took one). */
const MAX_TRIES = 3;
/** The item stays a day past its lease (TTL), for whoever looks at the table after an incident. */
const KEEP_SECONDS = 86_400;

export class DynamoLeasesRepo implements LeasesRepo {
  async acquire(projectId: string, scope: string, slots: number, holder: string, now: number, until: number): Promise<number | null> {
    const held = new Set<number>();
    const items = await queryAll({
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.leasesPk(projectId, scope) },
      ConsistentRead: true,
    });
    for (const it of items) {
      const n = Number(String(it.sk).slice('SLOT#'.length));
      if (Number(it.lease_until) > now && it.holder !== holder) held.add(n);
    }
    const free = Array.from({ length: slots }, (_, n) => n).filter((n) => !held.has(n));
    // Start at a random free slot: containers taking at the same moment rarely race for the same one.
    const start = Math.floor(Math.random() * free.length);
    const order = [...free.slice(start), ...free.slice(0, start)].slice(0, MAX_TRIES);
    for (const n of order) if (await this.take(projectId, scope, n, holder, now, until)) return n;
    return null;
  }

  async take(projectId: string, scope: string, slot: number, holder: string, now: number, until: number): Promise<boolean> {
    return putIf({
      Item: {
        ...keys.leaseSlot(projectId, scope, slot),
        entity: 'lease',
        holder,
        lease_until: until,
        expires_at: Math.ceil(until / 1000) + KEEP_SECONDS,
      },
      ConditionExpression: 'attribute_not_exists(pk) OR lease_until < :now OR holder = :holder',
      ExpressionAttributeValues: { ':now': now, ':holder': holder },
    });
  }

  async release(projectId: string, scope: string, slot: number, holder: string): Promise<void> {
    await deleteIf(keys.leaseSlot(projectId, scope, slot), 'holder = :holder', { ':holder': holder });
  }
}
