// CLI entry: rts serve | admin | traces | ci | demo-agent.
import { main } from '../functions/cli/main';

main(process.argv.slice(2)).then(
  (code) => {
    if (typeof code === 'number') process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`rts: ${(err as Error).message ?? String(err)}\n`);
    process.exitCode = 2;
  },
);
