// `rts open [run|batch|campaign] <id|name>`: prints the dashboard link of a run, a CI batch or a campaign. The link
// carries the project id (no secret) and never the API key: CI logs keep what they print; the page asks for the key.
import { RtsApiError } from '../../packages/sdk/src/index';
import { describeError, processIo, type CommandIo } from './command-io';
import { cliClient, connectionOptions, dashboardBase } from './connection';
import { safeIo } from './output';
import { isUuid, resolveCampaignId } from './resolve';

const USAGE = `Usage: rts open [run|batch|campaign] <id|name>

Prints the dashboard link of a run, a CI batch or a campaign (a campaign also by name). Without
a kind, an id is looked up as a run, then a batch, then a campaign. The link holds the project id
and never the API key: the dashboard asks for the key (RTS_DASHBOARD_URL sets the dashboard's
base, default <RTS_API_URL>/dashboard).

Environment: RTS_API_URL, RTS_API_KEY, RTS_PROJECT_ID (each one unset is read from the local
service's <RTS_DATA_DIR or .rts>/credentials.json). Exit 0, or 2 when nothing has that id.
`;

const KINDS = { run: 'runs', batch: 'batches', campaign: 'campaigns' } as const;
type Kind = keyof typeof KINDS;

/** Runs `rts open <argv>`; resolves to the exit code. */
export async function runOpen(argv: string[], streams: CommandIo = processIo()): Promise<number> {
  const io = safeIo(streams);
  if (argv.some((a) => a === '--help' || a === '-h') || argv[0] === 'help') {
    io.stdout.write(USAGE);
    return 0;
  }
  const [first, second, ...extra] = argv;
  const kind = second !== undefined && first in KINDS ? (first as Kind) : undefined;
  const ref = kind ? second : first;
  if (!ref || extra.length || (second !== undefined && !kind) || ref.startsWith('-')) {
    io.stderr.write(USAGE);
    return 2;
  }
  try {
    const client = cliClient(streams.env);
    const exists = (read: () => Promise<unknown>) =>
      read().then(
        () => true,
        (err: unknown) => {
          if (err instanceof RtsApiError && err.status === 404) return false;
          throw err;
        },
      );
    let found: [Kind, string] | undefined;
    if (kind === 'campaign' || (!kind && !isUuid(ref))) found = ['campaign', await resolveCampaignId(client, ref)];
    else if (kind) found = [kind, ref.toLowerCase()];
    else if (await exists(() => client.getRun(ref))) found = ['run', ref];
    else if (await exists(() => client.getCiBatch(ref))) found = ['batch', ref];
    else if (await exists(() => client.getCampaign(ref))) found = ['campaign', ref];
    if (!found) {
      io.stderr.write(`rts open: no run, batch or campaign ${ref} in this project\n`);
      return 2;
    }
    const projectId = connectionOptions(streams.env).projectId;
    io.stdout.write(`${dashboardBase(client, streams.env)}/${KINDS[found[0]]}/${found[1].toLowerCase()}#project=${projectId}\n`);
    return 0;
  } catch (err) {
    io.stderr.write(`rts open: ${describeError(err)}\n`);
    return 2;
  }
}
