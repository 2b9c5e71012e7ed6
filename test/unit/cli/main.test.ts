// The CLI's entry (functions/cli/main.ts): every command's and subcommand's --help exits 0 with its usage on stdout,
// --version and -V print the package's version, and no command or an unknown one exits 2 with the usage on stderr.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { main } from '../../../functions/cli/main';
import { captureOutput } from '../../helpers/capture-output';

const rts = (args: string[]) => captureOutput(() => main(args));

const VERSION = (JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as { version: string }).version;

describe('rts --version', () => {
  it.each([['--version'], ['-V']])('%s prints the package version and exits 0', async (flag) => {
    expect(await rts([flag])).toEqual({ code: 0, out: `${VERSION}\n`, err: '' });
  });
});

describe('rts --help', () => {
  it.each([
    [['--help'], /^Usage: rts <command>/],
    [['-h'], /^Usage: rts <command>/],
    [['help'], /^Usage: rts <command>/],
    [['help', 'ci'], /^Usage: rts ci run/],
    [['help', 'admin'], /^Usage:\n {2}rts admin create-project/],
    [['serve', '--help'], /^Usage: rts serve/],
    [['serve', '-h'], /^Usage: rts serve/],
    [['admin', '--help'], /^Usage:\n {2}rts admin create-project/],
    [['admin', 'help'], /^Usage:\n {2}rts admin create-project/],
    [['admin', 'create-project', '--help'], /^Usage:\n {2}rts admin create-project/],
    [['admin', 'create-key', '--help'], /^Usage:\n {2}rts admin create-project/],
    [['admin', 'revoke-key', '-h'], /^Usage:\n {2}rts admin create-project/],
    [['traces', '--help'], /^Usage: rts traces upload/],
    [['traces', 'help'], /^Usage: rts traces upload/],
    [['traces', 'upload', '--help'], /^Usage: rts traces upload/],
    [['ci', '--help'], /^Usage: rts ci run/],
    [['ci', 'help'], /^Usage: rts ci run/],
    [['ci', 'run', '--help'], /^Usage: rts ci run/],
    [['demo-agent', '--help'], /^usage: rts demo-agent/],
    [['apply', '--help'], /^Usage: rts apply \[-f rts\.yaml\] \[--dry-run\]/],
    [['help', 'apply'], /^Usage: rts apply/],
    [['campaigns', '--help'], /^Usage: rts campaigns list/],
    [['campaigns', 'show', '--help'], /^Usage: rts campaigns list/],
    [['runs', '--help'], /^Usage: rts runs create --campaign <name\|id> --trace <id\|file>/],
    [['runs', 'create', '--help'], /^Usage: rts runs create/],
    [['open', '--help'], /^Usage: rts open \[run\|batch\|campaign\] <id\|name>/],
  ])('rts %j prints its usage on stdout and exits 0', async (args, usage) => {
    const res = await rts(args);
    expect([res.code, res.err]).toEqual([0, '']);
    expect(res.out).toMatch(usage);
  });

  it('names the version flag and the per-command help in the top-level usage', async () => {
    const { out } = await rts(['--help']);
    expect(out).toContain('-V, --version');
    expect(out).toContain("'rts <command> --help'");
  });

  it('exits 2 with the usage on stderr without a command, for an unknown command and for help on one', async () => {
    for (const args of [[], ['launch'], ['help', 'launch']]) {
      const res = await rts(args);
      expect([args, res.code, res.out]).toEqual([args, 2, '']);
      expect(res.err).toContain('Usage: rts <command>');
    }
  });

  it('exits 2 for a command without its subcommand', async () => {
    for (const args of [['admin'], ['traces'], ['ci'], ['campaigns'], ['runs'], ['open']]) expect([args, (await rts(args)).code]).toEqual([args, 2]);
  });
});
