// What the Lambda bundles leave out (LEFT_OUT in lib/constructs/esbuild-run.js): unreachable from our three SDK
// clients, and stubbed so that reaching it anyway throws, naming the module (functions/adapters/lambda-stubs.ts).
import { readFileSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import { REPO_ROOT } from '../../../lib/constructs/bundling';
import * as stubs from '../../../functions/adapters/lambda-stubs';

describe('what the bundles leave out is unreachable', () => {
  const CLIENTS = ['@aws-sdk/client-dynamodb', '@aws-sdk/client-sqs', '@aws-sdk/client-eventbridge'];

  it.each(CLIENTS)('%s has no operation with an event-stream member (@smithy/core/event-streams)', (client) => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { NormalizedSchema } = require('@smithy/core/schema');
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const commands = Object.entries(require(client) as Record<string, unknown>).filter(([name]) => /^[A-Z]\w*Command$/.test(name));

    const streaming = commands.filter(([, Command]) => {
      const [, , , , input, output] = new (Command as new (input: object) => { schema: unknown[] })({}).schema;
      return NormalizedSchema.of(input).getEventStreamMember() || NormalizedSchema.of(output).getEventStreamMember();
    });

    expect(commands.length).toBeGreaterThan(20);
    expect(streaming.map(([name]) => name)).toEqual([]);
  });

  it.each(CLIENTS)('%s has no command that adds endpoint discovery, the one reader of EndpointCache', (client) => {
    const dir = path.join(REPO_ROOT, 'node_modules', client, 'dist-es', 'commands');
    const commands = readdirSync(dir).filter((f) => f.endsWith('Command.js'));

    expect(commands.length).toBeGreaterThan(20);
    expect(commands.filter((f) => /EndpointDiscovery/.test(readFileSync(path.join(dir, f), 'utf8')))).toEqual([]);
  });
});

describe('the stubs of what the bundles leave out', () => {
  const LEFT_OUT_ERROR = /is not in this Lambda bundle/;

  it('throw, naming the module, when reached', async () => {
    expect(() => new stubs.EventStreamSerde()).toThrow(/@smithy\/core\/event-streams .*is not in this Lambda bundle/);
    expect(() => stubs.eventStreamSerdeProvider()).toThrow(/event-streams/);
    expect(() => new stubs.Sha256Js()).toThrow(/Sha256Js/);
    await expect(stubs.getInstanceMetadataRegion()).rejects.toThrow(/getInstanceMetadataRegion/);
    await expect(stubs.resolveParamsForS3()).rejects.toThrow(/resolveParamsForS3/);
    const DFA = stubs.re2jsLeftOut('DFA') as new () => unknown;
    expect(() => new DFA()).toThrow(/re2js's DFA .*is not in this Lambda bundle/);
    expect(() => (stubs.re2jsLeftOut('TranslateRegExpString') as { translate(): void }).translate()).toThrow(LEFT_OUT_ERROR);
  });

  it('EndpointCache: built with the DynamoDB client, harmlessly; any use throws', () => {
    const cache = new stubs.EndpointCache();

    expect(() => cache.getEndpoint('k')).toThrow(/endpoint-cache/);
    expect(() => cache.set('k', [])).toThrow(LEFT_OUT_ERROR);
  });

  it("SignatureV4MultiRegion: signs a regional request as the SDK's does, and throws for SigV4a (signing region *)", async () => {
    // Prepare
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const sdk = require('@aws-sdk/signature-v4-multi-region');
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { HttpRequest } = require('@smithy/core/protocols');
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { Sha256 } = require('@smithy/core/checksum');
    const options = {
      credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret', sessionToken: 'token' },
      region: 'eu-west-1',
      service: 'events',
      sha256: Sha256,
    };
    const request = () =>
      new HttpRequest({
        method: 'POST',
        hostname: 'events.eu-west-1.amazonaws.com',
        path: '/',
        headers: { host: 'events.eu-west-1.amazonaws.com' },
        body: '{}',
      });
    const signingDate = new Date('2026-11-27T08:00:00Z');
    const Stub = stubs.regionalSigner(sdk.SignatureV4SignWithCredentials);

    // Act
    const ours = await new Stub(options).sign(request(), { signingDate, signingRegion: 'eu-west-1' });
    const theirs = await new sdk.SignatureV4MultiRegion(options).sign(request(), { signingDate, signingRegion: 'eu-west-1' });

    // Assess
    expect((ours as { headers: object }).headers).toEqual(theirs.headers);
    expect(Stub.sigv4aDependency()).toBe(sdk.SignatureV4MultiRegion.sigv4aDependency());
    await expect(new Stub(options).sign(request(), { signingRegion: '*' })).rejects.toThrow(/SigV4a .*is not in this Lambda bundle/);
  });
});
