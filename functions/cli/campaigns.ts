// `rts campaigns list|show`: the project's campaigns, and one campaign by name or id with its eval-set and versions.
import { parseArgs } from 'node:util';
import type { Campaign } from '../../packages/sdk/src/index';
import { cliClient, dashboardBase } from './connection';
import { describeError, printTable, type CommandIo, processIo } from './command-io';
import { jsonText, oneLine, safeIo } from './output';
import { describeChanges } from './apply/print';
import { allCampaigns, resolveCampaignId } from './resolve';

const USAGE = `Usage: rts campaigns list [--json]
       rts campaigns show <name|id> [--version n] [--json]

list: every campaign of the project, newest first: id, version, name, target, mutations, eval-set.
show: one campaign (by name or id): its definition as the API returns it (secrets as "***"), its
eval-set, its versions and what each changed, and its dashboard link. --version n shows an older
version. --json prints the API's answer instead.

Environment: RTS_API_URL, RTS_API_KEY, RTS_PROJECT_ID (each one unset is read from the local
service's <RTS_DATA_DIR or .rts>/credentials.json). Exit 0, or 2 on an error.
`;

const targetOf = (c: Campaign): string => {
  const t = c.target as { type: string; url?: string; base_url?: string; model?: string };
  return t.type === 'http' || t.type === 'mcp' ? `${t.type} ${t.url}` : t.type === 'openai' ? `openai ${t.model} ${t.base_url}` : t.type;
};

/** Runs `rts campaigns <argv>`; resolves to the exit code. */
export async function runCampaigns(argv: string[], streams: CommandIo = processIo()): Promise<number> {
  const io = safeIo(streams);
  const [sub, ...rest] = argv;
  let values;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: rest,
      strict: true,
      allowPositionals: true,
      options: { json: { type: 'boolean' }, version: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    }));
  } catch (err) {
    io.stderr.write(`rts campaigns: ${(err as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (sub === '--help' || sub === '-h' || sub === 'help' || values.help) {
    io.stdout.write(USAGE);
    return 0;
  }
  const version = values.version === undefined ? undefined : Number(values.version);
  const valid = (sub === 'list' && !positionals.length && version === undefined) || (sub === 'show' && positionals.length === 1);
  if (!valid || (version !== undefined && !(Number.isInteger(version) && version > 0))) {
    io.stderr.write(USAGE);
    return 2;
  }
  try {
    const client = cliClient(streams.env);
    if (sub === 'list') {
      const campaigns = await allCampaigns(client);
      if (values.json) io.stdout.write(`${jsonText(campaigns)}\n`);
      else if (!campaigns.length) io.stdout.write('No campaigns yet: rts apply -f rts.yaml creates them (docs/campaigns-as-code.md).\n');
      else {
        const rows = campaigns.map((c) => [
          c.campaign_id,
          String(c.version),
          oneLine(c.name),
          oneLine(targetOf(c)),
          String(c.mutations.length),
          `${c.eval_set.trace_count} (min ${c.eval_set.min_scenarios})`,
        ]);
        printTable(io.stdout, ['campaign', 'version', 'name', 'target', 'mutations', 'eval-set'], rows);
      }
      return 0;
    }
    const id = await resolveCampaignId(client, positionals[0]);
    const [campaign, evalSet, versions] = await Promise.all([
      client.getCampaign(id, { version }),
      client.getEvalSet(id),
      client.listCampaignVersions(id, { limit: 20 }),
    ]);
    if (values.json) {
      io.stdout.write(`${jsonText({ ...campaign, eval_set: evalSet, versions: versions.items })}\n`);
      return 0;
    }
    const { campaign_id, name, version: v, created_at, eval_set: _e, ...definition } = campaign;
    io.stdout.write(
      [
        `campaign   ${campaign_id}`,
        `name       ${oneLine(name)}`,
        `version    ${v}${version === undefined ? '' : ' (an older version: --version)'}`,
        `created    ${created_at}`,
        `target     ${oneLine(targetOf(campaign))}`,
        `eval-set   ${evalSet.trace_count} trace(s), min_scenarios ${evalSet.min_scenarios}`,
        `dashboard  ${dashboardBase(client, streams.env)}/campaigns/${campaign_id}`,
        '',
        'Versions (newest first):',
        ...versions.items.map((e) => `  ${String(e.version).padStart(3)}  ${e.created_at}  ${describeChanges(e.changes) || 'no change'}`),
        '',
        'Definition:',
        jsonText(definition).replace(/^/gm, '  '),
        '',
      ].join('\n'),
    );
    return 0;
  } catch (err) {
    io.stderr.write(`rts campaigns: ${describeError(err)}\n`);
    return 2;
  }
}
