// How the CLI prints: names and messages from the service are user data and may carry line breaks, so nothing the
// CLI prints may start a line that a CI runner takes for a workflow command (docs/security.md, "CLI output in CI logs").

/** Line breaks a log reader may split on: CRLF, LF, CR, VT, FF, NEL, LINE SEPARATOR, PARAGRAPH SEPARATOR. */
const LINE_BREAK = /\r\n|[\n\r\v\f\u0085\u2028\u2029]/g;

/** Separators the CLI never writes itself (it ends lines with LF, and rewrites a terminal's line with CR + erase-line). */
// eslint-disable-next-line no-control-regex -- the terminal's erase-line sequence starts with ESC
const FOREIGN_BREAK = /\r\n|\r(?!\x1b\[K)|[\v\f\u0085\u2028\u2029]/g;

/**
 * Starts of lines that CI runners read as commands: GitHub Actions `::cmd::` (and its older `##[cmd]`), Azure
 * Pipelines `##vso[`. Runners trim leading white space before they look.
 */
const COMMAND_START = /^(\s*)(::|##\[|##vso\[)/i;

/** A user value on one line: every line break becomes a space (a table cell, a name in a sentence). */
export const oneLine = (s: string): string => s.replace(LINE_BREAK, ' ');

/**
 * Text as the CLI prints it: line breaks it never writes itself become spaces, and a line that would start like a
 * workflow command gets its first character percent-escaped (`%3A:warning...`), so a CI runner shows it as text.
 */
export function inert(text: string): string {
  return text
    .replace(FOREIGN_BREAK, (b) => (b === '\r\n' ? '\n' : ' '))
    .split('\n')
    .map((line) =>
      line.replace(COMMAND_START, (_, space: string, start: string) => `${space}%${start.charCodeAt(0).toString(16).toUpperCase()}${start.slice(1)}`),
    )
    .join('\n');
}

/** JSON as the CLI prints it: NEL, LS and PS (which JSON.stringify leaves raw) escaped too, so a value stays on its line. */
export const jsonText = (value: unknown, indent = 2): string =>
  JSON.stringify(value, null, indent).replace(/[\u0085\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** Where the CLI writes: a process stream, or a test's buffer. */
export interface Writer {
  write(s: string): unknown;
  isTTY?: boolean;
}

const RAW = Symbol('raw stream');

/** A stream whose every write goes through `inert`; the CLI's own workflow commands go through `writeCommands`. */
export interface SafeWriter extends Writer {
  readonly [RAW]: Writer;
}

/** Wraps a stream so that everything written to it is printed through `inert` (a stream already wrapped is kept). */
export function safeWriter(stream: Writer): SafeWriter {
  if (RAW in stream) return stream as SafeWriter;
  return {
    write: (s: string) => stream.write(inert(s)),
    get isTTY() {
      return stream.isTTY;
    },
    [RAW]: stream,
  };
}

/** Both output streams of a command, wrapped. */
export const safeIo = <T extends { stdout: Writer; stderr: Writer }>(io: T): T => ({
  ...io,
  stdout: safeWriter(io.stdout),
  stderr: safeWriter(io.stderr),
});

/**
 * The CLI's own workflow commands (built with every value escaped, see ci-github.ts), written as they are: the only
 * lines allowed to start with `::`. Any other line in `commands` is printed through `inert`.
 */
export function writeCommands(stream: Writer, commands: string): void {
  const raw = RAW in stream ? (stream as SafeWriter)[RAW] : stream;
  const lines = commands.split('\n');
  const own = (l: string, i: number) => i < lines.length - 1 && /^::error[ :]/.test(l) && inert(l.slice(2)) === l.slice(2);
  raw.write(lines.map((l, i) => (own(l, i) ? l : inert(l))).join('\n'));
}
