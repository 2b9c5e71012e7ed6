// One service per data folder, held by an operating-system lock (LevelDB's LOCK file, an fcntl lock) that the OS
// releases the moment its holder dies: a crash, a SIGKILL or a reboot never leaves a lock that blocks the next start,
// whatever process later reuses the old pid. serve.pid is kept for people and messages only. Each `rts serve` also
// leaves a record in a per-user runtime folder, so `rts admin` run elsewhere can find the store that is in use.
import { lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { ClassicLevel } from 'classic-level';

export interface DataDirLock {
  release(): Promise<void>;
}

function isLocked(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string } };
  return e?.code === 'LEVEL_LOCKED' || e?.cause?.code === 'LEVEL_LOCKED';
}

/** Takes the folder's lock, or throws a message naming the service that holds it. */
export async function lockDataDir(dataDir: string): Promise<DataDirLock> {
  const db = new ClassicLevel(join(dataDir, 'serve.lock'));
  try {
    await db.open();
  } catch (err) {
    if (!isLocked(err)) throw err;
    let pid = '';
    try {
      pid = ` (pid ${Number(readFileSync(join(dataDir, 'serve.pid'), 'utf8'))})`;
    } catch {
      // The holder has not written its pid yet: the message goes without it.
    }
    throw new Error(`${dataDir} is in use by another rts serve${pid}; stop it or use another RTS_DATA_DIR`);
  }
  const pidFile = join(dataDir, 'serve.pid');
  writeFileSync(pidFile, String(process.pid));
  return {
    async release() {
      rmSync(pidFile, { force: true });
      await db.close();
    },
  };
}

/**
 * Waits until no process holds the LevelDB folder at `path` (the store of a service that was just killed may take a
 * moment to exit), then leaves it closed for the store to open. Gives up after `timeoutMs`.
 */
export async function waitForStoreUnlocked(path: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const db = new ClassicLevel(path);
    try {
      await db.open();
      await db.close();
      return;
    } catch (err) {
      if (!isLocked(err) || Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/** What a running `rts serve` tells other commands about itself (`<runtime folder>/serve-<pid>.json`). */
export interface ServiceRecord {
  pid: number;
  url: string;
  data_dir: string;
  store_endpoint: string;
  /** The embedded store's per-start secret (the record is 0600 in a 0700 folder of this user's). */
  store_secret?: string;
  table: string;
  in_memory: boolean;
  started_at: string;
}

/**
 * The per-user folder of service records: RTS_RUNTIME_DIR, else $XDG_RUNTIME_DIR/rts, else <tmp>/rts-<uid>. Created
 * 0700; undefined when it is not a folder of this user's that only this user can write (another user's records are
 * never trusted: they would point `rts admin` at a store that is not ours).
 */
export function serviceRecordsDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const uid = process.getuid?.();
  const dir = env.RTS_RUNTIME_DIR || (env.XDG_RUNTIME_DIR ? join(env.XDG_RUNTIME_DIR, 'rts') : join(tmpdir(), `rts-${uid ?? userInfo().username}`));
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = lstatSync(dir);
    if (!st.isDirectory() || (uid !== undefined && (st.uid !== uid || (st.mode & 0o022) !== 0))) return undefined;
    return dir;
  } catch {
    return undefined;
  }
}

/** Records a running service; returns the function that removes the record (on stop). */
export function recordService(record: ServiceRecord, env: NodeJS.ProcessEnv = process.env): () => void {
  const dir = serviceRecordsDir(env);
  if (!dir) return () => undefined;
  const file = join(dir, `serve-${record.pid}.json`);
  try {
    // Written whole, then renamed: a reader never sees half a record (and would take it for a stale one).
    writeFileSync(`${file}.tmp`, `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600 });
    renameSync(`${file}.tmp`, file);
  } catch {
    return () => undefined; // a service nobody can find is still a service: `rts admin --data-dir` reaches it
  }
  return () => rmSync(file, { force: true });
}

/** The records of services whose process is alive; records left by a process that died are removed. */
export function runningServices(env: NodeJS.ProcessEnv = process.env): ServiceRecord[] {
  const dir = serviceRecordsDir(env);
  if (!dir) return [];
  const found: ServiceRecord[] = [];
  for (const name of readdirSync(dir).filter((n) => /^serve-\d+\.json$/.test(n))) {
    let record: ServiceRecord;
    try {
      record = JSON.parse(readFileSync(join(dir, name), 'utf8')) as ServiceRecord;
      process.kill(record.pid, 0);
    } catch {
      // Unreadable, or its process is gone (the folder is this user's: a pid owned by someone else was reused).
      rmSync(join(dir, name), { force: true });
      continue;
    }
    found.push(record);
  }
  return found;
}
