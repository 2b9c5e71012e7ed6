// The parties a run's attempts call, built once per delivery: the agent's target (with what an `mcp` target needs), the
// judge and the simulated user, each over the SSRF-guarded sender and under its own limits and 429 policy.
import type { Campaign, Target } from '../campaigns/schema';
import type { Deps, HttpSender, ReplayMessage } from '../ports';
import type { Trace } from '../traces/schema';
import type { CompiledRun } from './compile';
import { targetUnderDeadline, type RunDeadline } from './deadline';
import { createJudge, type Judge } from './judge';
import type { RunThrottling } from './limits/for-run';
import { createTarget, type TargetDeps } from './targets';
import type { AgentTarget, Sleep } from './types';
import { createUserSimulator, type UserSimulator } from './user-simulator';

export type PartiesDeps = Pick<Deps, 'clock'> & Partial<Pick<Deps, 'judgeCache' | 'mcpSessions' | 'apiBase'>>;

export interface PartiesContext {
  msg: ReplayMessage;
  trace: Trace;
  campaign: Campaign;
  /** The campaign version the run replays (an `mcp` target's endpoint serves with it). */
  campaignVersion: number | null;
  compiled: CompiledRun;
  deadline: RunDeadline | undefined;
  http: HttpSender;
  sleep: Sleep;
  throttling: RunThrottling;
  targetFactory?: (target: Target, deps: TargetDeps) => AgentTarget;
}

export interface Parties {
  target: AgentTarget;
  judgeOf(attempt: number): Judge | undefined;
  simulatorOf(attempt: number): UserSimulator | undefined;
}

export function partiesOf(deps: PartiesDeps, c: PartiesContext): Parties {
  const { project_id: pid } = c.msg;
  const { campaign, throttling, sleep, http } = c;
  const now = () => deps.clock.now();
  const mcp =
    campaign.target.type === 'mcp' && deps.mcpSessions && deps.apiBase
      ? {
          sessions: deps.mcpSessions,
          apiBase: deps.apiBase(),
          projectId: pid,
          campaignVersion: c.campaignVersion,
          campaignId: campaign.campaign_id,
          traceId: c.trace.trace_id,
          now,
        }
      : undefined;
  const built = (c.targetFactory ?? createTarget)(campaign.target, {
    trace: c.trace,
    http: throttling.httpOf('target', http),
    sleep,
    throttle: throttling.target,
    mcp,
  });
  const judgeConfig = campaign.judge;
  const judgeHttp = throttling.httpOf('judge', http);
  const simulatorConfig = campaign.user_simulator;
  const simulatorHttp = throttling.httpOf('simulator', http);
  return {
    target: c.deadline ? targetUnderDeadline(built, c.deadline) : built,
    judgeOf: (attempt) =>
      judgeConfig
        ? createJudge(judgeConfig, { http: judgeHttp, sleep, cache: deps.judgeCache, projectId: pid, now, throttle: throttling.judge(attempt) })
        : undefined,
    simulatorOf: (attempt) =>
      simulatorConfig
        ? createUserSimulator(simulatorConfig, {
            http: simulatorHttp,
            sleep,
            cache: deps.judgeCache,
            projectId: pid,
            now,
            throttle: throttling.simulator(attempt),
            recordedTurns: c.compiled.turnCount,
          })
        : undefined,
  };
}
