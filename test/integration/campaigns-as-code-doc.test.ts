// The example file of docs/campaigns-as-code.md applied as written (its trace globs matched by copies of sample traces
// in a scratch folder beside it): a dry run plans it and changes nothing, `rts apply` creates the campaign and its
// eval-set with the header taken from the environment, and without that variable the file is refused at its line.
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { blocksOf, ROOT, runRts, userEnv } from '../helpers/doc-commands';
import { startServeProcess, type ServedProcess } from '../helpers/serve-process';

describe('the example file of docs/campaigns-as-code.md', () => {
  it('plans, applies with its secret from the environment, and is refused without it', async () => {
    // Prepare: the file and the traces its globs name.
    const [example] = blocksOf('docs/campaigns-as-code.md', '## The file').filter((b) => b.lang === 'yaml');
    expect(example.text).toContain("'Bearer ${AGENT_TOKEN}'");
    const dir = mkdtempSync(join(tmpdir(), 'rts-cac-doc-'));
    const dataDir = join(dir, 'data');
    mkdirSync(join(dir, 'traces', 'refunds'), { recursive: true });
    cpSync(join(ROOT, 'samples', 'traces', 'refund-order.json'), join(dir, 'traces', 'refunds', 'refund-order.json'));
    cpSync(join(ROOT, 'samples', 'traces', 'book-flight.json'), join(dir, 'traces', 'escalation.json'));
    const file = join(dir, 'rts.yaml');
    writeFileSync(file, example.text);
    let service: ServedProcess | undefined;
    try {
      service = await startServeProcess(dataDir);
      const env = userEnv({ RTS_DATA_DIR: dataDir });
      // Act
      const unset = await runRts(['apply', '-f', file], env);
      const planned = await runRts(['apply', '-f', file, '--dry-run'], { ...env, AGENT_TOKEN: 'agent-token-123' });
      const applied = await runRts(['apply', '-f', file], { ...env, AGENT_TOKEN: 'agent-token-123' });
      const again = await runRts(['apply', '-f', file], { ...env, AGENT_TOKEN: 'agent-token-123' });
      // Assess
      const tokenLine = example.text.split('\n').findIndex((l) => l.includes('${AGENT_TOKEN}')) + 1;
      expect([unset.code, unset.err]).toEqual([1, expect.stringContaining(`rts.yaml:${tokenLine}:`)]);
      expect(unset.err).toContain('AGENT_TOKEN');
      expect([planned.code, planned.out]).toEqual([
        0,
        expect.stringContaining('+ campaign "refund bot robustness": create (2 mutations, 1 policy, 2 criteria)'),
      ]);
      expect(planned.out).toContain('Nothing was changed.');
      expect([applied.code, applied.out]).toEqual([0, expect.stringContaining('eval-set: +2 traces, min_scenarios 10; 2 traces in the pool')]);
      expect(again.out).toContain('No changes');
      for (const r of [unset, planned, applied, again]) expect(r.out + r.err).not.toContain('agent-token-123');
    } finally {
      await service?.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
