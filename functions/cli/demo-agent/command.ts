// `rts demo-agent`: serves the deterministic sample agent of demo-agent/, which speaks the step protocol
// (docs/connect-your-agent.md#the-step-protocol-http-target) and, with --mcp, answers as an `mcp` target too.
import { loadSampleTraces } from './plan';
import { startDemoAgent, type DemoAgent, type DemoAgentOptions } from './server';

export { decideStep } from './behaviour';
export { findSecrets, isErrorResult, parseInjection } from './injection';
export { loadSampleTraces, type DemoPlan } from './plan';
export { stepRequestSchema, type StepReply, type StepRequest } from './protocol';
export { DEMO_AGENT_DEFAULT_PORT, startDemoAgent, type DemoAgent, type DemoAgentOptions } from './server';

/** Where {@link runDemoAgentCli} writes, and what stops it besides SIGINT/SIGTERM (tests pass an AbortSignal). */
export interface DemoAgentCliIo {
  out?: (line: string) => void;
  err?: (line: string) => void;
  signal?: AbortSignal;
}

const USAGE = 'usage: rts demo-agent [--port <port>] [--host <address>] [--guarded] [--mcp] [--traces <folder>]';

/**
 * `rts demo-agent [--port p] [--host h] [--guarded] [--mcp] [--traces dir]`: serves the demo agent (default port 8788)
 * until Ctrl-C; `--mcp` adds its naive and guarded invoke endpoints (an `mcp` target's url). Resolves with the exit code: 0 after a clean stop, 2 on bad arguments or when the port cannot be bound.
 */
export async function runDemoAgentCli(argv: string[], io: DemoAgentCliIo = {}): Promise<number> {
  const out = io.out ?? ((line: string) => process.stdout.write(`${line}\n`));
  const err = io.err ?? ((line: string) => process.stderr.write(`${line}\n`));
  const options: DemoAgentOptions = {};
  let tracesDir: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i]!.split(/=(.*)/s, 2) as [string, string | undefined];
    const value = (): string | undefined => inline ?? argv[++i];
    if (flag === '--guarded') options.guarded = true;
    else if (flag === '--mcp') options.mcp = true;
    else if (flag === '--port') {
      const port = Number(value());
      if (!Number.isInteger(port) || port < 0 || port > 65535) {
        err(`invalid --port\n${USAGE}`);
        return 2;
      }
      options.port = port;
    } else if (flag === '--host') options.host = value();
    else if (flag === '--traces') tracesDir = value();
    else if (flag === '--help' || flag === '-h') {
      out(USAGE);
      return 0;
    } else {
      err(`unknown argument ${argv[i]}\n${USAGE}`);
      return 2;
    }
  }
  let agent: DemoAgent;
  try {
    if (tracesDir !== undefined) options.traces = loadSampleTraces(tracesDir);
    agent = await startDemoAgent(options);
  } catch (e) {
    err(`demo-agent: ${(e as Error).message}`);
    return 2;
  }
  out(`demo agent (${options.guarded ? 'guarded' : 'naive'}) listening on ${agent.url}`);
  out(`use it as a campaign target: {"type":"http","url":"${agent.url}"}; Ctrl-C stops it`);
  if (agent.invoke) {
    out(`mcp targets: {"type":"mcp","url":"${agent.invoke.naive}"} (naive), {"type":"mcp","url":"${agent.invoke.guarded}"} (guarded)`);
  }
  await new Promise<void>((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      io.signal?.removeEventListener('abort', stop);
      resolve();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    if (io.signal?.aborted) stop();
    else io.signal?.addEventListener('abort', stop);
  });
  await agent.close();
  out('demo agent stopped');
  return 0;
}
