// Summarises a V8 CPU profile (node --cpu-prof): self time by package / project file and the hottest functions.
// Usage: npx tsx test/bench/profile-summary.ts <file.cpuprofile> [top=25]
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileSummary {
  totalMs: number;
  idleMs: number;
  byModule: { name: string; ms: number }[];
  byFunction: { name: string; ms: number }[];
}

/** Where a frame's code lives: an npm package, a project file, node's own code, or a V8 pseudo frame. */
function moduleOf(url: string, fn: string): string {
  if (!url) return `(${fn || 'anonymous'})`;
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + 'node_modules/'.length).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  if (url.startsWith('node:')) return 'node (built-in modules)';
  const m = /\/(functions|lib|bin|test)\/(.*)$/.exec(url);
  return m ? `${m[1]}/${m[2]}` : url;
}

export function summariseProfile(profile: Profile, top = 25): ProfileSummary {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000));
  const modules = new Map<string, number>();
  const functions = new Map<string, number>();
  let totalMs = 0;
  let idleMs = 0;
  for (const [id, ms] of self) {
    const { callFrame: f } = byId.get(id)!;
    totalMs += ms;
    if (f.functionName === '(idle)') {
      idleMs += ms;
      continue;
    }
    const mod = moduleOf(f.url, f.functionName);
    modules.set(mod, (modules.get(mod) ?? 0) + ms);
    const fn = `${f.functionName || '(anonymous)'} ${mod}${f.url ? `:${f.lineNumber + 1}` : ''}`;
    functions.set(fn, (functions.get(fn) ?? 0) + ms);
  }
  const sorted = (m: Map<string, number>) =>
    [...m.entries()]
      .map(([name, ms]) => ({ name, ms }))
      .sort((a, b) => b.ms - a.ms)
      .slice(0, top);
  return { totalMs, idleMs, byModule: sorted(modules), byFunction: sorted(functions) };
}

export function printProfileSummary(s: ProfileSummary): void {
  const busy = s.totalMs - s.idleMs;
  console.log(`profile: ${(s.totalMs / 1000).toFixed(1)} s sampled, ${(busy / 1000).toFixed(1)} s busy`);
  const line = (e: { name: string; ms: number }) =>
    `${((100 * e.ms) / busy).toFixed(1).padStart(5)} %  ${(e.ms / 1000).toFixed(2).padStart(6)} s  ${e.name}`;
  console.log('\nself time by module:');
  for (const e of s.byModule) console.log(line(e));
  console.log('\nself time by function:');
  for (const e of s.byFunction) console.log(line(e));
}

if (require.main === module) {
  const [file, top] = process.argv.slice(2);
  if (!file) {
    console.error('usage: tsx test/bench/profile-summary.ts <file.cpuprofile> [top]');
    process.exit(2);
  }
  printProfileSummary(summariseProfile(JSON.parse(readFileSync(file, 'utf8')) as Profile, Number(top ?? 25)));
}
