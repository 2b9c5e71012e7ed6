// What the CLI's API commands share: their streams, how an error is described, and a plain text table.
import { RtsApiError } from '../../packages/sdk/src/index';
import { oneLine, type Writer } from './output';
import { ResolveError } from './resolve';

/** Where a command writes and what it reads; defaults to the process (tests pass their own). */
export interface CommandIo {
  stdout: Writer;
  stderr: Writer;
  env: NodeJS.ProcessEnv;
}

export const processIo = (): CommandIo => ({ stdout: process.stdout, stderr: process.stderr, env: process.env });

/** An error on one line (the API's details each on a line of their own), with a hint for the usual causes. */
export function describeError(err: unknown): string {
  if (err instanceof RtsApiError) {
    const details = (err.body?.error?.details ?? []).map((d) => `\n  ${d.path ? `${oneLine(d.path)}: ` : ''}${oneLine(d.message)}`).join('');
    const hint =
      err.status === 401
        ? ' (check RTS_API_KEY and RTS_PROJECT_ID)'
        : err.status === 412
          ? ' (the campaign changed since it was read: read it again)'
          : '';
    return `${err.status ? `HTTP ${err.status} ` : ''}${err.code}: ${oneLine(err.message)}${hint}${details}`;
  }
  if (err instanceof ResolveError) return err.message;
  return oneLine((err as Error)?.message ?? String(err));
}

/** Columns padded to their widest cell, two spaces apart; the last column is not padded. */
export function printTable(out: Writer, header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  out.write(`${[line(header), ...rows.map((r) => line(r))].join('\n')}\n`);
}
