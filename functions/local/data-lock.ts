// One service per data folder, held by an operating-system lock (LevelDB's LOCK file, an fcntl lock) that the OS
// releases the moment its holder dies: a crash, a SIGKILL or a reboot never leaves a lock that blocks the next start,
// whatever process later reuses the old pid. serve.pid is kept for people and messages only.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
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
