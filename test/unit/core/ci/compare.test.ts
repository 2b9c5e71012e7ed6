// Comparison of a done batch with its baseline (docs/ci.md#baselines): the per-cell truth table, regressions, fixes,
// new unsafe cells, new and dropped traces, capped lists with exact counts, scenario verdicts and determinism.
import { compareBatches, compareCell, comparisonView, MAX_COMPARISON_ENTRIES, type ComparedRun } from '../../../../functions/core/ci/compare';
import type { CellStat } from '../../../../functions/core/runs/cells';

const cell = (mutation_id: string | null, passed: number, total: number, unsafe = 0): CellStat => ({
  mutation_id,
  passed,
  total,
  unsafe,
  errors: 0,
  failures: [],
});

const run = (trace_id: string, cells: CellStat[] | undefined, trace_name: string | null = null): ComparedRun => ({
  run_id: `run-${trace_id}`,
  trace_id,
  trace_name,
  cells,
});

const INFO = {
  baseline_batch_id: 'batch-base',
  baseline_branch: 'main',
  pass_rate: 0.75,
  baseline_pass_rate: 0.9,
  campaign_version: 1,
  baseline_campaign_version: 1,
};

describe('compareCell', () => {
  it.each([
    // k = 1: pass -> fail regresses, fail -> pass is fixed, the rest is unchanged.
    [1, 1, 0, 1, 'regressed'],
    [0, 1, 1, 1, 'fixed'],
    [1, 1, 1, 1, 'unchanged'],
    [0, 1, 0, 1, 'unchanged'],
    // k = 3: all passed before and one fails now regresses; not all before and all now is fixed.
    [3, 3, 2, 3, 'regressed'],
    [3, 3, 0, 3, 'regressed'],
    [2, 3, 3, 3, 'fixed'],
    [0, 3, 3, 3, 'fixed'],
    [0, 3, 1, 3, 'unchanged'],
    [1, 3, 2, 3, 'unchanged'],
    [2, 3, 0, 3, 'unchanged'],
    [3, 3, 3, 3, 'unchanged'],
  ])('before %i/%i, now %i/%i: %s', (bp, bt, np, nt, expected) => {
    expect(compareCell(cell('m', np, nt), cell('m', bp, bt))).toBe(expected);
  });

  it('calls a cell new when the baseline has no such cell, or either side has no repeats', () => {
    expect(compareCell(cell('m', 0, 3), undefined)).toBe('new');
    expect(compareCell(cell('m', 0, 3), cell('m', 0, 0))).toBe('new');
    expect(compareCell(cell('m', 0, 0), cell('m', 3, 3))).toBe('new');
  });
});

describe('compareBatches', () => {
  it('lists regressions and fixes cell by cell, counts new and dropped traces, and gives each scenario its verdict', () => {
    // Prepare: t1 regresses on `shout`; t2 is new; t3 is fixed on `shout`; t4 is dropped.
    const current = [
      run('t1', [cell(null, 1, 1), cell('shout', 0, 1)], 'refund'),
      run('t2', [cell(null, 1, 1)]),
      run('t3', [cell('shout', 1, 1)], 'cancel'),
    ];
    const baseline = [run('t4', [cell(null, 1, 1)]), run('t3', [cell('shout', 0, 1)]), run('t1', [cell(null, 1, 1), cell('shout', 1, 1)])];
    // Act
    const { comparison, scenarios } = compareBatches(current, baseline, INFO);
    // Assess
    expect(comparison).toEqual({
      baseline_batch_id: 'batch-base',
      baseline_branch: 'main',
      baseline_campaign_version: 1,
      campaign_version: 1,
      pass_rate_delta: expect.closeTo(-0.15, 12),
      regressed_count: 1,
      fixed_count: 1,
      new_unsafe_count: 0,
      new_count: 1,
      dropped_count: 1,
      regressed: [{ trace_id: 't1', trace_name: 'refund', mutation_id: 'shout', before: '1/1', after: '0/1' }],
      fixed: [{ trace_id: 't3', trace_name: 'cancel', mutation_id: 'shout', before: '0/1', after: '1/1' }],
      new_unsafe: [],
      dropped: [{ trace_id: 't4', trace_name: null }],
      new_cells_count: 0,
      dropped_cells_count: 0,
      new_cells: [],
      dropped_cells: [],
    });
    expect(Object.fromEntries(scenarios)).toEqual({
      'run-t1': {
        comparison: 'regressed',
        cells: [
          { mutation_id: null, comparison: 'unchanged', before: '1/1' },
          { mutation_id: 'shout', comparison: 'regressed', before: '1/1' },
        ],
      },
      'run-t2': { comparison: 'new', cells: [{ mutation_id: null, comparison: 'new', before: null }] },
      'run-t3': { comparison: 'fixed', cells: [{ mutation_id: 'shout', comparison: 'fixed', before: '0/1' }] },
    });
  });

  it('gives a scenario with a regressed and a fixed cell the verdict regressed', () => {
    // Prepare
    const current = [run('t1', [cell('a', 3, 3), cell('b', 2, 3)])];
    const baseline = [run('t1', [cell('a', 1, 3), cell('b', 3, 3)])];
    // Act
    const { comparison, scenarios } = compareBatches(current, baseline, INFO);
    // Assess
    expect(scenarios.get('run-t1')?.comparison).toBe('regressed');
    expect([comparison.regressed_count, comparison.fixed_count]).toEqual([1, 1]);
  });

  it('calls a scenario unchanged when its trace is in the baseline but none of its cells changed or were compared', () => {
    // Prepare: t1 has a cell the baseline lacks; t2's marker has no cells (written before repeats statistics).
    const current = [run('t1', [cell('new-mutation', 0, 3)]), run('t2', undefined)];
    const baseline = [run('t1', [cell(null, 3, 3)]), run('t2', [cell(null, 3, 3)])];
    // Act
    const { comparison, scenarios } = compareBatches(current, baseline, INFO);
    // Assess
    expect(scenarios.get('run-t1')).toEqual({ comparison: 'unchanged', cells: [{ mutation_id: 'new-mutation', comparison: 'new', before: null }] });
    expect(scenarios.get('run-t2')).toEqual({ comparison: 'unchanged', cells: [] });
    expect(comparison).toMatchObject({ regressed_count: 0, fixed_count: 0, new_count: 0, dropped_count: 0 });
  });

  it('lists a cell as new unsafe only when the baseline had the cell with no unsafe repeat', () => {
    // Prepare
    const current = [
      run('t1', [cell('inject', 2, 3, 1)], 'leaky'), // safe before: listed
      run('t2', [cell('inject', 3, 3, 2)]), // already unsafe before: not listed
      run('t3', [cell('inject', 0, 3, 3)]), // trace new: not listed
      run('t4', [cell('other', 0, 3, 3)]), // cell new in a known trace: not listed
      run('t5', [cell('inject', 3, 3, 0)]), // safe now: not listed
    ];
    const baseline = [
      run('t1', [cell('inject', 3, 3, 0)]),
      run('t2', [cell('inject', 3, 3, 1)]),
      run('t4', [cell('inject', 3, 3, 0)]),
      run('t5', [cell('inject', 3, 3, 0)]),
    ];
    // Act
    const { comparison } = compareBatches(current, baseline, INFO);
    // Assess
    expect(comparison.new_unsafe_count).toBe(1);
    expect(comparison.new_unsafe).toEqual([
      { trace_id: 't1', trace_name: 'leaky', mutation_id: 'inject', before: '3/3', after: '2/3', unsafe_before: '0/3', unsafe_after: '1/3' },
    ]);
  });

  it('keeps the first 50 entries of each list in the order of the current runs, with exact counts', () => {
    // Prepare: 120 traces; the baseline lists them in reverse, then 60 it alone has. Each of the 120 regresses on `r`, is
    // fixed on `f`, and turns unsafe on `u`.
    const ids = Array.from({ length: 120 }, (_, i) => `t${String(i).padStart(3, '0')}`);
    const current = ids.map((t) => run(t, [cell('r', 0, 1), cell('f', 1, 1), cell('u', 1, 1, 1)]));
    const gone = Array.from({ length: 60 }, (_, i) => `gone${i}`);
    const baseline = [...ids].reverse().map((t) => run(t, [cell('r', 1, 1), cell('f', 0, 1), cell('u', 1, 1, 0)]));
    baseline.push(...gone.map((t) => run(t, [cell('r', 1, 1)], `name of ${t}`)));
    // Act
    const { comparison } = compareBatches(current, baseline, INFO);
    // Assess
    expect(MAX_COMPARISON_ENTRIES).toBe(50);
    expect([comparison.regressed_count, comparison.fixed_count, comparison.new_unsafe_count]).toEqual([120, 120, 120]);
    for (const list of [comparison.regressed, comparison.fixed, comparison.new_unsafe]) {
      expect(list.map((c) => c.trace_id)).toEqual(ids.slice(0, 50));
    }
    // Dropped traces follow the baseline's order, with the baseline's names.
    expect(comparison.dropped_count).toBe(60);
    expect(comparison.dropped).toEqual(gone.slice(0, 50).map((t) => ({ trace_id: t, trace_name: `name of ${t}` })));
  });

  it('counts traces present on one side only as new or dropped, never as regressions', () => {
    // Prepare
    const current = [run('a', [cell(null, 0, 1)]), run('b', [cell(null, 0, 1)])];
    const baseline = [run('c', [cell(null, 1, 1)]), run('d', [cell(null, 1, 1)]), run('e', [cell(null, 1, 1)])];
    // Act
    const { comparison } = compareBatches(current, baseline, INFO);
    // Assess
    expect(comparison).toMatchObject({ new_count: 2, dropped_count: 3, regressed_count: 0, fixed_count: 0, regressed: [], fixed: [] });
    expect(comparison.dropped.map((d) => d.trace_id)).toEqual(['c', 'd', 'e']);
  });

  it('marks cells of mutations in one campaign version only as new or dropped, never as regressions, and names both versions', () => {
    // Prepare: version 2 added mutation 'added' (failing) and removed 'removed' (which passed)
    const current = [run('t1', [cell(null, 1, 1), cell('kept', 1, 1), cell('added', 0, 1, 1)], 'one')];
    const baseline = [run('t1', [cell(null, 1, 1), cell('kept', 1, 1), cell('removed', 1, 1)], 'one')];
    // Act
    const { comparison, scenarios } = compareBatches(current, baseline, { ...INFO, campaign_version: 2, baseline_campaign_version: 1 });
    // Assess
    expect(comparison).toMatchObject({ campaign_version: 2, baseline_campaign_version: 1, regressed_count: 0, new_unsafe_count: 0 });
    expect(comparison.new_cells).toEqual([{ trace_id: 't1', trace_name: 'one', mutation_id: 'added' }]);
    expect(comparison.dropped_cells).toEqual([{ trace_id: 't1', trace_name: 'one', mutation_id: 'removed' }]);
    expect(comparison).toMatchObject({ new_cells_count: 1, dropped_cells_count: 1, new_count: 0, dropped_count: 0 });
    expect(scenarios.get('run-t1')).toEqual({
      comparison: 'unchanged',
      cells: [
        { mutation_id: null, comparison: 'unchanged', before: '1/1' },
        { mutation_id: 'kept', comparison: 'unchanged', before: '1/1' },
        { mutation_id: 'added', comparison: 'new', before: null },
      ],
    });
  });

  it('takes pass_rate_delta as the current pass rate minus the baseline one, and works against an empty baseline', () => {
    // Act
    const up = compareBatches([], [], { ...INFO, pass_rate: 0.9, baseline_pass_rate: 0.5 }).comparison;
    const none = compareBatches([run('a', [cell(null, 1, 1)])], [], { ...INFO, baseline_branch: null, pass_rate: 1, baseline_pass_rate: 0 });
    // Assess
    expect(up.pass_rate_delta).toBeCloseTo(0.4, 12);
    expect(none.comparison).toMatchObject({ baseline_branch: null, pass_rate_delta: 1, new_count: 1, dropped_count: 0 });
    expect(none.scenarios.get('run-a')?.comparison).toBe('new');
  });

  it('gives the same answer to the same input, to the byte', () => {
    // Prepare
    const current = [run('t1', [cell(null, 1, 3), cell('m', 3, 3, 1)], 'x'), run('t2', [cell(null, 3, 3)])];
    const baseline = [run('t1', [cell(null, 3, 3), cell('m', 1, 3)]), run('t9', [])];
    // Act
    const first = compareBatches(current, baseline, INFO);
    const second = compareBatches(structuredClone(current), structuredClone(baseline), { ...INFO });
    // Assess
    expect(second).toEqual(first);
    const bytes = (r: typeof first) => JSON.stringify([r.comparison, [...r.scenarios]]);
    expect(bytes(second)).toBe(bytes(first));
  });
});

describe('comparisonView', () => {
  it('fills in the versions and empty cell lists of a comparison stored before they were recorded, and keeps a current one', async () => {
    // Prepare
    const { comparison } = compareBatches([run('a', [cell(null, 1, 1)])], [run('a', [cell(null, 1, 1)])], { ...INFO, campaign_version: 3 });
    const {
      baseline_campaign_version: _b,
      campaign_version: _c,
      new_cells: _n,
      dropped_cells: _d,
      new_cells_count: _nc,
      dropped_cells_count: _dc,
      ...old
    } = comparison;
    const versions = jest.fn(async () => ({ campaign_version: 2, baseline_campaign_version: 1 }));
    // Act
    const filled = await comparisonView(old as typeof comparison, versions);
    const kept = await comparisonView(comparison, versions);
    // Assess
    expect(filled).toEqual({
      ...old,
      campaign_version: 2,
      baseline_campaign_version: 1,
      new_cells_count: 0,
      dropped_cells_count: 0,
      new_cells: [],
      dropped_cells: [],
    });
    expect(kept).toBe(comparison);
    expect(versions).toHaveBeenCalledTimes(1);
    expect(comparisonView(null, versions)).toBeNull();
  });
});
