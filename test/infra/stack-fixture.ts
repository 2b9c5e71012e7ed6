// Builds the service stack once per test file with bundling off (handler files are not read), plus template lookup helpers for the infra assertions.
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { REPO_ROOT } from '../../lib/constructs/bundling';
import { ServiceStack, type ServiceStackProps } from '../../lib/service-stack';

type Resource = { Type: string; Properties?: Record<string, any>; DependsOn?: unknown };

export interface Built {
  app: App;
  stack: ServiceStack;
  template: Template;
  resources: Record<string, Resource>;
}

/** The context operators get from cdk.json (feature flags and defaults), so tests see what `cdk synth` sees. */
export function cdkJsonContext(): Record<string, unknown> {
  return JSON.parse(readFileSync(path.join(REPO_ROOT, 'cdk.json'), 'utf8')).context;
}

export function buildStack(props: ServiceStackProps = {}, context: Record<string, unknown> = {}): Built {
  const app = new App({
    context: { ...cdkJsonContext(), ...context, 'aws:cdk:bundling-stacks': [] },
    // The built-in CloudFormation schema validation costs ~8 s per synth; the real synth test keeps it on.
    builtinCloudFormationValidation: false,
  });
  const stack = new ServiceStack(app, 'rts-test', props);
  const template = Template.fromStack(stack);
  return { app, stack, template, resources: template.toJSON().Resources as Record<string, Resource> };
}

/** Logical id of the Lambda function whose Description is `description`. */
export function functionIdByDescription(built: Built, description: string): string {
  const ids = Object.entries(built.resources)
    .filter(([, r]) => r.Type === 'AWS::Lambda::Function' && r.Properties?.Description === description)
    .map(([id]) => id);
  if (ids.length !== 1) throw new Error(`expected one function described "${description}", found ${ids.length}`);
  return ids[0];
}

/** Every IAM statement attached to the function's execution role. */
export function roleStatements(built: Built, functionId: string): { Action: string | string[]; Resource: unknown; Effect: string }[] {
  const roleRef = built.resources[functionId].Properties!.Role;
  const roleId: string = roleRef['Fn::GetAtt'][0];
  return Object.values(built.resources)
    .filter((r) => r.Type === 'AWS::IAM::Policy' && (r.Properties!.Roles as { Ref: string }[]).some((x) => x.Ref === roleId))
    .flatMap((r) => r.Properties!.PolicyDocument.Statement);
}

export function actionsOf(statements: { Action: string | string[] }[]): string[] {
  return statements.flatMap((s) => (Array.isArray(s.Action) ? s.Action : [s.Action]));
}

/** API methods keyed `METHOD /path`, paths rebuilt from the Resource tree. */
export function methodsByRoute(built: Built): Map<string, Resource & { id: string }> {
  const pathOf = (ref: any): string => {
    if (ref['Fn::GetAtt']) return '';
    const res = built.resources[ref.Ref];
    return `${pathOf(res.Properties!.ParentId)}/${res.Properties!.PathPart}`;
  };
  const out = new Map<string, Resource & { id: string }>();
  for (const [id, r] of Object.entries(built.resources)) {
    if (r.Type !== 'AWS::ApiGateway::Method') continue;
    out.set(`${r.Properties!.HttpMethod} ${pathOf(r.Properties!.ResourceId) || '/'}`, { ...r, id });
  }
  return out;
}

/** The Lambda logical id a proxy method integrates with. */
export function integratedFunctionId(method: Resource): string | undefined {
  const uri = JSON.stringify(method.Properties!.Integration?.Uri ?? '');
  return /"Fn::GetAtt":\["([^"]+)","Arn"\]/.exec(uri)?.[1];
}

export function ofType(built: Built, type: string): [string, Resource][] {
  return Object.entries(built.resources).filter(([, r]) => r.Type === type);
}
