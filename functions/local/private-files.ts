// The local data folder is its owner's alone: the store inside holds every project's API key hashes and webhook
// secrets, so no other local user may read it, and nothing rts writes there is readable by group or others.
import { chmodSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Permission bits of group and others. */
const NOT_OWNER = 0o077;

/** What rts keeps in a data folder: only these are tightened, so a folder shared with other files keeps those as they are. */
const OWN_ENTRIES = ['store', 'serve.lock', 'serve.pid', 'credentials.json', 'store.json'];

/** Takes the permission bits of group and others away from one path (not a symbolic link); answers whether it had any. */
function tightenOne(path: string): { changed: boolean; folder: boolean } {
  let st;
  try {
    st = lstatSync(path);
  } catch {
    return { changed: false, folder: false };
  }
  if (st.isSymbolicLink()) return { changed: false, folder: false };
  const changed = (st.mode & NOT_OWNER) !== 0;
  if (changed) chmodSync(path, st.mode & 0o700);
  return { changed, folder: st.isDirectory() };
}

/**
 * Takes every permission bit of group and others away from `path` and, when it is a folder, from everything under it
 * (symbolic links are neither changed nor followed); answers the paths it changed.
 */
export function tightenTree(path: string): string[] {
  const { changed, folder } = tightenOne(path);
  const out = changed ? [path] : [];
  if (folder) for (const name of readdirSync(path)) out.push(...tightenTree(join(path, name)));
  return out;
}

/**
 * Creates the data folder 0700 when missing; when it exists, makes it and what rts keeps in it private (0700 folders,
 * 0600 files) and says on stderr what it had to tighten.
 */
export function makeDataDirPrivate(dataDir: string, warn: (message: string) => void = (m) => process.stderr.write(m)): void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const changed = tightenOne(dataDir).changed ? [dataDir] : [];
  for (const entry of OWN_ENTRIES) changed.push(...tightenTree(join(dataDir, entry)));
  if (changed.length) {
    warn(
      `rts: ${dataDir} was readable by other users (${changed.length} path${changed.length === 1 ? '' : 's'} with group or other permissions); ` +
        'made it private to you (folders 0700, files 0600)\n',
    );
  }
}

/**
 * Sets the process's umask to 0o077 so that every file and folder it creates from now on is its owner's only; answers
 * the function that restores the previous one (a no-op where the umask cannot be set, e.g. in a worker thread).
 */
export function privateUmask(): () => void {
  try {
    const previous = process.umask(0o077);
    return () => {
      process.umask(previous);
    };
  } catch {
    return () => undefined;
  }
}
