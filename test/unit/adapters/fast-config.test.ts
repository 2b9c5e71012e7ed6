// Every AWS client the service builds has a config with fast properties (withFastConfig in functions/adapters/aws.ts):
// the SDK's middlewares spread it on every call, ~6x slower while V8 keeps it as a dictionary. Checked with V8's own
// %HasFastProperties in fresh processes, on this Node, the Lambda runtime's Node major and Node 24, with the local
// store's endpoint (its client is built without signing) and with AWS's.
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { LAMBDA_NODE_MAJOR, nodesToTest } from '../../helpers/node-binary';

const FIXTURE = path.join(__dirname, '..', '..', 'fixtures', 'adapters', 'client-configs.ts');

function configs(node: string, env: Record<string, string>): Record<'dynamodb' | 'sqs' | 'eventBridge' | 'direct', boolean> {
  const out = execFileSync(node, ['--allow-natives-syntax', '--import', 'tsx', FIXTURE], {
    cwd: path.join(__dirname, '..', '..', '..'),
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH,
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'AKIDFAST',
      AWS_SECRET_ACCESS_KEY: 'fast',
      ...env,
    },
  });
  return JSON.parse(out);
}

// This Node, Lambda's, and the next (the service must run on 22 and 24 too).
const nodes = nodesToTest('fast-config test', [LAMBDA_NODE_MAJOR, 24]);

describe.each(nodes)('AWS client configs on %s', (_name, node) => {
  it.each([
    ['AWS', {}],
    ['a local store', { DYNAMODB_ENDPOINT: 'http://127.0.0.1:8000' }],
  ])(
    'have fast properties with %s as the endpoint, where the SDK alone leaves a dictionary',
    (_endpoint, env) => {
      expect(configs(node, env)).toEqual({ dynamodb: true, sqs: true, eventBridge: true, direct: false });
    },
    60_000,
  );
});
