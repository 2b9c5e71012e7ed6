// Policies (docs/campaigns-and-replay.md#policies): every tool call is checked by every policy in order, before it is
// served.
import type { Policy } from '../../campaigns/schema';
import type { PolicyEvent } from '../../runs/types';
import { globMatchAny, globMatcher } from '../glob';
import { checkArgument, compileConstraint, type CompiledConstraint } from './argument-constraint';

/** A policy prepared once per run: globs and patterns compiled. */
export interface CompiledPolicy {
  policy: Policy;
  constraint?: CompiledConstraint;
}

export interface PolicyDecision {
  policy_id: string;
  policy_type: PolicyEvent['policy_type'];
  decision: PolicyEvent['decision'];
  reason: string;
}

/** The call under check: `key` is tool name plus canonical JSON arguments (identical-call detection). */
export interface CallUnderCheck {
  name: string;
  arguments: Record<string, unknown>;
  key: string;
}

/** Compiles a campaign's policies (argument patterns once, not per call). */
export function compilePolicies(policies: readonly Policy[]): CompiledPolicy[] {
  return policies.map((policy) => (policy.type === 'argument_constraint' ? { policy, constraint: compileConstraint(policy) } : { policy }));
}

/** Per-attempt policy state: call counts, identical calls, tools that have returned. */
export class PolicyState {
  calls = 0;
  private readonly identical = new Map<string, number>();
  private readonly flowOpen: boolean[];

  constructor(private readonly policies: readonly CompiledPolicy[]) {
    this.flowOpen = policies.map(() => false);
  }

  /**
   * Checks one call and counts it (denied calls count too: the agent made them). The event loop gets a turn before
   * each argument pattern is matched, so the matches of several constraints (each bounded, see pattern.ts) never add
   * up in one turn of the loop.
   */
  async check(call: CallUnderCheck): Promise<PolicyDecision[]> {
    this.calls += 1;
    const identical = (this.identical.get(call.key) ?? 0) + 1;
    this.identical.set(call.key, identical);
    const out: PolicyDecision[] = [];
    for (const [index, cp] of this.policies.entries()) {
      if (cp.constraint?.pattern) await new Promise((resolve) => setImmediate(resolve));
      const d = this.decide(cp, index, call, identical);
      if (d) out.push({ policy_id: cp.policy.id, policy_type: cp.policy.type, decision: d.ok ? 'allow' : cp.policy.action, reason: d.reason });
    }
    return out;
  }

  /** Records that a call was served (it "has returned"), which arms matching flow policies. */
  served(name: string): void {
    this.policies.forEach((cp, index) => {
      if (cp.policy.type === 'flow' && !this.flowOpen[index] && globMatcher(cp.policy.after_tool)(name)) this.flowOpen[index] = true;
    });
  }

  /** null when the policy does not apply to this call. */
  private decide(cp: CompiledPolicy, index: number, call: CallUnderCheck, identical: number): { ok: boolean; reason: string } | null {
    const p = cp.policy;
    switch (p.type) {
      case 'deny_tools':
        return globMatchAny(p.tools, call.name) ? { ok: false, reason: `tool ${call.name} is on the deny list` } : null;
      case 'allow_tools':
        return globMatchAny(p.tools, call.name)
          ? { ok: true, reason: `tool ${call.name} is on the allow list` }
          : { ok: false, reason: `tool ${call.name} is not on the allow list` };
      case 'argument_constraint':
        if (!globMatcher(p.tool)(call.name)) return null;
        return checkArgument(cp.constraint as CompiledConstraint, call.arguments);
      case 'max_tool_calls':
        return this.calls <= p.limit
          ? { ok: true, reason: `tool call ${this.calls} of at most ${p.limit}` }
          : { ok: false, reason: `tool call ${this.calls} exceeds the limit of ${p.limit}` };
      case 'no_repeated_calls':
        return identical <= p.max_identical
          ? { ok: true, reason: `identical call ${identical} of at most ${p.max_identical}` }
          : { ok: false, reason: `identical call ${identical} exceeds the limit of ${p.max_identical}` };
      case 'flow':
        if (!globMatchAny(p.deny_tools, call.name)) return null;
        return this.flowOpen[index]
          ? { ok: false, reason: `tool ${call.name} is not allowed after ${p.after_tool} has returned` }
          : { ok: true, reason: `${p.after_tool} has not returned yet` };
    }
  }
}

/** The first deny decision, if any: that policy's id is what the agent is told. */
export function firstDenial(decisions: readonly PolicyDecision[]): PolicyDecision | undefined {
  return decisions.find((d) => d.decision === 'deny');
}
