// cdk-nag's AwsSolutions pack passes on the stack, and every acknowledged rule carries a specific reason.
import { Validations } from 'aws-cdk-lib';
import { Annotations, Match } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { buildStack } from './stack-fixture';

const built = buildStack({ alarmEmail: 'ops@example.com', perProjectThrottling: true });

function acknowledgements(root: IConstruct): { path: string; id: string; reason: string }[] {
  return root.node
    .findAll()
    .flatMap((c) =>
      c.node.metadata
        .filter((m) => m.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
        .map((m) => ({ c, data: m.data as Record<string, string> })),
    )
    .flatMap(({ c, data }) => Object.entries(data).map(([id, reason]) => ({ path: c.node.path, id: id.replace(/^annotation::/i, ''), reason })));
}

describe('cdk-nag AwsSolutions', () => {
  it('reports no violation (errors or warnings) on the whole stack', () => {
    // Act
    const report = new AwsSolutionsChecks(undefined, { verbose: true }).validateScope(built.app);

    // Assess
    const found = report.violations.map((v) => `${v.severity} ${v.ruleName}: ${v.violatingResources.map((r) => r.constructPath).join(', ')}`);
    expect(found).toEqual([]);
  });

  it('leaves no CDK error annotation', () => {
    expect(Annotations.fromStack(built.stack).findError('*', Match.stringLikeRegexp('AwsSolutions-.*'))).toEqual([]);
    expect(Annotations.fromStack(built.stack).findError('*', Match.anyValue())).toEqual([]);
  });

  it('acknowledges only known rules, each with a specific reason', () => {
    const acks = acknowledgements(built.app);

    expect(acks.length).toBeGreaterThan(0);
    const ids = new Set(acks.map((a) => a.id.replace(/\[.*$/, '')));
    expect([...ids].sort()).toEqual(
      [
        'AwsSolutions-APIG2',
        'AwsSolutions-APIG3',
        'AwsSolutions-APIG4',
        'AwsSolutions-COG4',
        'AwsSolutions-IAM4',
        'AwsSolutions-IAM5',
        'AwsSolutions-L1',
        'AwsSolutions-SMG4',
        'AwsSolutions-SNS2',
        'AwsSolutions-SQS3',
      ].sort(),
    );
    for (const a of acks) expect(a.reason.length).toBeGreaterThan(40);
  });

  it('acknowledges IAM findings per finding, never the whole rule', () => {
    const iam = acknowledgements(built.app).filter((a) => a.id.startsWith('AwsSolutions-IAM'));

    expect(iam.map((a) => a.id).filter((id) => !id.includes('['))).toEqual([]);
  });

  it('leaves authorized methods without an APIG4 acknowledgement', () => {
    const apig4 = acknowledgements(built.app).filter((a) => a.id === 'AwsSolutions-APIG4');
    const authorized = built.stack.api.restApi.methods.filter(
      (m) => (m.node.defaultChild as { authorizationType?: string }).authorizationType === 'CUSTOM',
    );

    expect(authorized.length).toBeGreaterThan(0);
    for (const m of authorized) expect(apig4.some((a) => a.path === m.node.path)).toBe(false);
  });
});
