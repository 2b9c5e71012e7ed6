import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { resetAwsClients } from '../../../../functions/adapters/aws';
import { dynamoDocClient } from '../../../../functions/adapters/dynamodb/client';

describe('DynamoDB client', () => {
  const saved = { endpoint: process.env.DYNAMODB_ENDPOINT, region: process.env.AWS_REGION };
  afterEach(() => {
    for (const [k, v] of [
      ['DYNAMODB_ENDPOINT', saved.endpoint],
      ['AWS_REGION', saved.region],
    ] as const) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    resetAwsClients();
  });

  const middleware = () => (dynamoDocClient() as unknown as { middlewareStack: { identify(): string[] } }).middlewareStack.identify().join('\n');

  it('signs requests to AWS with SigV4', () => {
    delete process.env.DYNAMODB_ENDPOINT;
    process.env.AWS_REGION = 'us-east-1';
    resetAwsClients();
    expect(middleware()).toContain('httpSigningMiddleware');
    expect(middleware()).not.toContain('localStoreAuthorization');
  });

  it('sends to a local store with a fixed, well-formed Authorization header instead of a signature', async () => {
    // Prepare: a store stand-in that records the headers and answers an empty GetItem
    const seen: IncomingHttpHeaders[] = [];
    const server = createServer((req, res) => {
      seen.push(req.headers);
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'Content-Type': 'application/x-amz-json-1.0' });
        res.end('{}');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    process.env.DYNAMODB_ENDPOINT = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    process.env.AWS_REGION = 'local';
    resetAwsClients();
    try {
      // Act
      const out = await dynamoDocClient().send(new GetCommand({ TableName: 't', Key: { pk: 'a', sk: 'b' } }));
      // Assess
      expect(out.Item).toBeUndefined();
      expect(middleware()).not.toContain('httpSigningMiddleware');
      expect(seen).toHaveLength(1);
      expect(seen[0].authorization).toBe(
        `AWS4-HMAC-SHA256 Credential=local/20250101/local/dynamodb/aws4_request, SignedHeaders=host;x-amz-date, Signature=${'0'.repeat(64)}`,
      );
      expect(seen[0]['x-amz-date']).toBe('20250101T000000Z');
      expect(seen[0]['x-amz-target']).toBe('DynamoDB_20120810.GetItem');
    } finally {
      server.close();
    }
  });
});
