// The CDK app: one rts stack per stage (`-c stage=...`), checked by cdk-nag's AwsSolutions rules at synthesis.
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { ServiceStack, stackPropsFromContext } from '../lib/service-stack';

const app = new App();
const props = stackPropsFromContext(app.node);

new ServiceStack(app, `rts-${props.stage}`, {
  ...props,
  description: `rts reliability testing service (${props.stage})`,
  // Environment-agnostic unless the CLI resolved an account/region, so `cdk synth` works offline.
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
});

// cdk-nag 3 runs as a CDK validation plugin (it replaced the v2 aspect): a violation fails synthesis.
Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }));
