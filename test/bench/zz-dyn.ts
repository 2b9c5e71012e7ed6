import { startEmbeddedStore, ensureTable } from '../../functions/local/store';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
(async () => {
  const s = await startEmbeddedStore({});
  await ensureTable(s.endpoint, 'ttt');
  const doc = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint: s.endpoint, region: 'local', credentials: { accessKeyId: 'x', secretAccessKey: 'x' } }));
  let t = Date.now();
  for (let i = 0; i < 300; i++) await doc.send(new PutCommand({ TableName: 'ttt', Item: { pk: 'a' + i, sk: 'b', v: 'x'.repeat(500) } }));
  console.log('put seq', (Date.now() - t) / 300);
  t = Date.now();
  for (let i = 0; i < 300; i++) await doc.send(new GetCommand({ TableName: 'ttt', Key: { pk: 'a' + i, sk: 'b' } }));
  console.log('get seq', (Date.now() - t) / 300);
  t = Date.now();
  await Promise.all(Array.from({ length: 300 }, (_, i) => doc.send(new GetCommand({ TableName: 'ttt', Key: { pk: 'a' + i, sk: 'b' } }))));
  console.log('get par', (Date.now() - t) / 300);
  await s.close();
})();
