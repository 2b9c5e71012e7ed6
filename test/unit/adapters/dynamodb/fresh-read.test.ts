// FreshReads: callers of one key at the same time share a read, and no caller ever gets a read that started before
// it called (that read could miss a write the caller must see). Generated interleavings of calls, writes and read
// completions check it against a store with a version counter.
import fc from 'fast-check';
import { FreshReads, freshReadOptions } from '../../../../functions/adapters/dynamodb/fresh-read';

/** A store whose reads the test finishes by hand; each read returns the version it saw when it started. */
function manualStore() {
  let version = 0;
  const pending: { key: string; finish: () => void; fail: (e: Error) => void }[] = [];
  const read = (key: string) =>
    new Promise<{ key: string; version: number }>((resolve, reject) => {
      const seen = version;
      pending.push({ key, finish: () => resolve({ key, version: seen }), fail: reject });
    });
  return { read, pending, write: () => ++version, version: () => version };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('FreshReads', () => {
  it('reads at once for an idle key, and shares the next read among the callers that came while one ran', async () => {
    // Prepare
    const store = manualStore();
    const reads = new FreshReads(store.read);

    // Act: one call reads; three more come while it runs; a write happens before the first read ends
    const first = reads.get('p');
    const later = [reads.get('p'), reads.get('p'), reads.get('p')];
    store.write();
    expect(store.pending).toHaveLength(1);
    store.pending.shift()!.finish();
    await settle();

    // Assess: the three share one new read, started after the first ended
    expect(await first).toEqual({ key: 'p', version: 0 });
    expect(store.pending).toHaveLength(1);
    store.pending.shift()!.finish();
    expect(await Promise.all(later)).toEqual([1, 1, 1].map((version) => ({ key: 'p', version })));
    expect(store.pending).toHaveLength(0);
  });

  it('keeps keys apart, and passes a failed read to exactly the callers that shared it', async () => {
    // Prepare
    const store = manualStore();
    const reads = new FreshReads(store.read);

    // Act
    const a = reads.get('a');
    const b = reads.get('b');
    const aLater = reads.get('a');
    store.pending.shift()!.fail(new Error('throttled'));
    store.pending.shift()!.finish();
    await settle();

    // Assess: a's first caller sees the failure; the later one gets the next read, which succeeds
    await expect(a).rejects.toThrow('throttled');
    expect(await b).toEqual({ key: 'b', version: 0 });
    expect(store.pending.map((p) => p.key)).toEqual(['a']);
    store.pending.shift()!.finish();
    expect(await aLater).toEqual({ key: 'a', version: 0 });
    await settle();
    const again = reads.get('a');
    expect(store.pending).toHaveLength(1);
    store.pending.shift()!.finish();
    expect(await again).toEqual({ key: 'a', version: 0 });
  });

  it('reads once per call when sharing is off, as a Lambda container would (the cost bench counts so)', async () => {
    // Prepare
    const store = manualStore();
    const reads = new FreshReads(store.read);
    freshReadOptions.share = false;
    try {
      // Act
      const calls = [reads.get('p'), reads.get('p'), reads.get('p')];

      // Assess
      expect(store.pending).toHaveLength(3);
      for (const p of store.pending.splice(0)) p.finish();
      expect(await Promise.all(calls)).toHaveLength(3);
    } finally {
      freshReadOptions.share = true;
    }
  });

  it('never gives a caller a read that started before its call, whatever the interleaving', async () => {
    const step = fc.oneof(
      fc.record({ op: fc.constant('call' as const), key: fc.constantFrom('a', 'b') }),
      fc.record({ op: fc.constant('write' as const) }),
      fc.record({ op: fc.constant('finish' as const), index: fc.nat() }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 60 }), async (steps) => {
        const store = manualStore();
        const reads = new FreshReads(store.read);
        const calls: { key: string; versionAtCall: number; result?: { key: string; version: number } }[] = [];
        const results: Promise<void>[] = [];
        for (const s of steps) {
          if (s.op === 'call') {
            const call: (typeof calls)[number] = { key: s.key, versionAtCall: store.version() };
            calls.push(call);
            results.push(reads.get(s.key).then((r) => void (call.result = r)));
          } else if (s.op === 'write') store.write();
          else if (store.pending.length) store.pending.splice(s.index % store.pending.length, 1)[0].finish();
          await settle();
        }
        while (store.pending.length) {
          store.pending.shift()!.finish();
          await settle();
        }
        await Promise.all(results);
        // Every call answered, from its own key, by a read that saw every write made before the call.
        for (const c of calls) {
          expect(c.result?.key).toBe(c.key);
          expect(c.result!.version).toBeGreaterThanOrEqual(c.versionAtCall);
        }
        // At most one read per key at a time, so never more reads than calls.
        return true;
      }),
      { numRuns: 300 },
    );
  });
});
