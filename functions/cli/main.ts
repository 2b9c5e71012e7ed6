// Dispatches the CLI's commands; each command lives in its own module, loaded only when used
// (require, not import(): the tsx CJS hook that runs bin/rts.js does not cover dynamic import).
/* eslint-disable @typescript-eslint/no-require-imports */

const USAGE = `Usage: rts <command> [options]

Commands:
  serve                               start the whole service locally (same as npm start)
  admin create-project --name N       create a project and its first API key [--table T --region R for AWS]
  admin create-key --project P        issue another API key for a project
  admin revoke-key --project P --key-id K
  traces upload <file...>             upload trace files (native JSON or OTLP/JSON)
  apply [-f rts.yaml] [--dry-run]     make the project's campaigns and eval-sets what the file says
  campaigns list | show <name|id>     the project's campaigns; one with its eval-set and versions
  runs create --campaign <name|id> --trace <id|file> [--wait]
                                      queue a replay; --wait prints its summary and attempts
  runs show <run_id>                  a run's summary and attempts table
  open [run|batch|campaign] <id|name> print the dashboard link (without credentials)
  ci run --campaign <name|id> [...]   submit a CI run or eval-set batch and gate on its verdict
  demo-agent [--port p] [--guarded] [--mcp]
                                      a deterministic sample agent: the step protocol, with --mcp an mcp target too

Options:
  -h, --help                          print this help ('rts <command> --help' or 'rts help <command>': a command's)
  -V, --version                       print the version of rts

Run 'rts <command> --help' for a command's options.
`;

/** The package's version (package.json, two folders up from here, as in the repository and the action's checkout). */
export function version(): string {
  return (require('../../package.json') as { version: string }).version;
}

/** Runs a command; resolves to the process exit code. */
export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'serve':
      return (require('./serve') as typeof import('./serve')).runServe(rest);
    case 'admin':
      return (require('./admin') as typeof import('./admin')).runAdmin(rest);
    case 'traces':
      return (require('./traces') as typeof import('./traces')).runTraces(rest);
    case 'apply':
      return (require('./apply/command') as typeof import('./apply/command')).runApply(rest);
    case 'campaigns':
      return (require('./campaigns') as typeof import('./campaigns')).runCampaigns(rest);
    case 'runs':
      return (require('./runs') as typeof import('./runs')).runRuns(rest);
    case 'open':
      return (require('./open') as typeof import('./open')).runOpen(rest);
    case 'ci':
      return (require('./ci/command') as typeof import('./ci/command')).runCi(rest);
    case 'demo-agent':
      return (require('./demo-agent/command') as typeof import('./demo-agent/command')).runDemoAgentCli(rest);
    case '-V':
    case '--version':
      process.stdout.write(`${version()}\n`);
      return 0;
    case 'help':
      // `rts help <command>` is `rts <command> --help`.
      if (rest.length && rest[0] !== 'help') return main([rest[0], '--help']);
      process.stdout.write(USAGE);
      return 0;
    case '-h':
    case '--help':
      process.stdout.write(USAGE);
      return 0;
    case undefined:
      process.stderr.write(USAGE);
      return 2;
    default:
      process.stderr.write(`rts: unknown command '${command}'\n\n${USAGE}`);
      return 2;
  }
}
