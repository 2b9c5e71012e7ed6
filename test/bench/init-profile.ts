// Where a bundle's cold init goes: `node --cpu-prof` of a fresh require(), sample time summed by the package (or our
// folder) whose code ran, compiled, or called into Node, plus V8 compiling the whole script. Profiled on a build of the
// same bundle minified but for whitespace, whose `// path` comments tell which module each line belongs to.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
  positionTicks?: { line: number; ticks: number }[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface InitProfile {
  /** Sampled time inside the bundle's require() (garbage collection aside), ms (mean per run). */
  totalMs: number;
  /** Time by package (`@smithy/core`), our folder (`functions/core`) or TOP_LEVEL_NODE, largest first. */
  groups: { name: string; ms: number }[];
}

/** Node's own work called from the bundle's top level: mostly loading the built-in modules the bundle requires. */
export const TOP_LEVEL_NODE = '(Node, called at top level)';

/** Node finding and reading the bundle file. */
const LOADING = '(Node, reading the file)';
/** V8 parsing and compiling the bundle's source before any of it runs: grows with the bundle's size. */
export const COMPILING = '(V8, compiling the bundle)';

/**
 * The helpers esbuild writes before the first module (`__esm`, `__commonJS`...): a helper's own time is V8 compiling
 * the module it starts, counted to that module.
 */
const GLUE = '(bundle glue)';

/** The module of each line of an unminified bundle (1-based), from the `// node_modules/...` comments esbuild writes. */
function lineModules(code: string): string[] {
  const modules: string[] = [''];
  let current = GLUE;
  for (const line of code.split('\n')) {
    const m = /^\s*\/\/ ((?:[\w@.-]+\/)+[\w@.-]+\.(?:[cm]?[jt]s|json))$/.exec(line);
    if (m) current = m[1];
    modules.push(current);
  }
  return modules;
}

function groupOf(module: string): string {
  const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(module);
  if (nm) return nm[1];
  const ours = /^(functions\/[^/]+|lib|test)\//.exec(module);
  return ours ? ours[1] : module;
}

/**
 * Profiles `runs` cold requires of `file` (a bundle with its module comments) in fresh `node` processes with `env`, and sums
 * the samples of the require():
 * a bundle frame's own time to the module of its lines; an esbuild wrapper's to the module it starts (compilation);
 * time in Node called from the bundle to the calling module, or to TOP_LEVEL_NODE when the bundle's top level called it
 * (loading built-in modules, mostly).
 */
export function profileInit(file: string, env: NodeJS.ProcessEnv, runs = 5, node = process.execPath): InitProfile {
  const modules = lineModules(readFileSync(file, 'utf8'));
  const moduleAt = (line: number) => modules[Math.min(Math.max(line, 1), modules.length - 1)];
  const totals = new Map<string, number>();
  let total = 0;
  const add = (group: string, ms: number) => {
    totals.set(group, (totals.get(group) ?? 0) + ms);
    total += ms;
  };
  for (let run = 0; run < runs; run++) {
    const dir = mkdtempSync(path.join(tmpdir(), 'rts-prof-'));
    try {
      execFileSync(node, ['--cpu-prof', '--cpu-prof-interval', '50', '--cpu-prof-dir', dir, '-e', 'require(process.argv[1])', file], {
        env,
        stdio: 'ignore',
      });
      const profile = JSON.parse(readFileSync(path.join(dir, readdirSync(dir)[0]), 'utf8')) as CpuProfile;
      const sampleMs = profile.timeDeltas.reduce((a, b) => a + b, 0) / 1000 / Math.max(profile.samples.length, 1);
      const byId = new Map(profile.nodes.map((n) => [n.id, n]));
      const inBundle = (n: ProfileNode) => n.callFrame.url.endsWith(file);
      const visit = (node: ProfileNode, caller: string | null) => {
        let owner = caller;
        const hits = node.hitCount ?? 0;
        if (inBundle(node)) {
          owner = groupOf(moduleAt(node.callFrame.lineNumber + 1));
          const topLevel = node.callFrame.lineNumber === 0 && node.callFrame.functionName === '';
          if (!topLevel && moduleAt(node.callFrame.lineNumber + 1) === GLUE) {
            const started = (node.children ?? []).map((c) => byId.get(c)!).find((element) => inBundle(element));
            add(started ? groupOf(moduleAt(started.callFrame.lineNumber + 1)) : GLUE, hits * sampleMs);
          } else {
            const ticks = node.positionTicks ?? [];
            for (const t of ticks) add(groupOf(moduleAt(t.line)), t.ticks * sampleMs);
            add(owner, (hits - ticks.reduce((a, t) => a + t.ticks, 0)) * sampleMs);
          }
          if (topLevel) owner = TOP_LEVEL_NODE;
        } else {
          // Outside the bundle's frames: the require() itself (the `-e` script), then V8 compiling the bundle's source.
          if (node.callFrame.url === '[eval]') owner = LOADING;
          else if (owner === LOADING && node.callFrame.functionName === 'wrapSafe') owner = COMPILING;
          if (owner) add(owner, hits * sampleMs);
        }
        for (const child of node.children ?? []) visit(byId.get(child)!, owner);
      };
      visit(profile.nodes[0], null);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const groups = [...totals].map(([name, ms]) => ({ name, ms: ms / runs })).filter((g) => g.ms > 0);
  return { totalMs: total / runs, groups: groups.sort((a, b) => b.ms - a.ms) };
}

export function formatProfile(name: string, profile: InitProfile, top = 10): string {
  const rows = profile.groups
    .slice(0, top)
    .map((g) => `  ${g.ms.toFixed(1).padStart(6)} ms  ${((100 * g.ms) / profile.totalMs).toFixed(0).padStart(3)} %  ${g.name}`);
  return [`${name}: ${profile.totalMs.toFixed(1)} ms sampled in its cold require()`, ...rows].join('\n');
}
