// Least privilege as synthesised: each function's role holds only what its route row or worker needs.
import { routes } from '../../lib/routes';
import { actionsOf, buildStack, functionIdByDescription, ofType, roleStatements } from './stack-fixture';

const built = buildStack();
const [[tableId]] = ofType(built, 'AWS::DynamoDB::Table');
const WRITES = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem', 'dynamodb:ConditionCheckItem'];
const READS = ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:BatchGetItem'];
const routeActions = (key: string) => actionsOf(roleStatements(built, functionIdByDescription(built, `rts ${key}`)));

describe('route functions', () => {
  it.each(routes.map((r) => [`${r.method} ${r.path}`, r] as const))(
    '%s gets exactly its table, queue, bus and cursor secret access',
    (key, route) => {
      const actions = routeActions(key);

      for (const a of READS) expect(actions.includes(a)).toBe(route.table !== 'none');
      for (const a of WRITES) expect(actions.includes(a)).toBe(route.table === 'readwrite');
      expect(actions.includes('sqs:SendMessage')).toBe(route.queue === true);
      expect(actions.includes('events:PutEvents')).toBe(route.bus === true);
      expect(actions.includes('secretsmanager:GetSecretValue')).toBe(route.list === true);
    },
  );

  it('never grants Scan, table management, or service-wide wildcards', () => {
    const all = routes.flatMap((r) => routeActions(`${r.method} ${r.path}`));

    expect(all.filter((a) => a.endsWith('*') || a === 'dynamodb:Scan' || /Table$/.test(a))).toEqual([]);
  });

  it('scopes DynamoDB reads to the table and its named GSIs, writes to the table only', () => {
    const statements = roleStatements(built, functionIdByDescription(built, 'rts POST /v1/traces'));
    const tableArn = { 'Fn::GetAtt': [tableId, 'Arn'] };
    const read = statements.find((s) => actionsOf([s]).includes('dynamodb:GetItem'))!;
    const write = statements.find((s) => actionsOf([s]).includes('dynamodb:PutItem'))!;

    expect(read.Resource).toEqual([tableArn, { 'Fn::Join': ['', [tableArn, '/index/gsi1']] }]);
    expect(write.Resource).toEqual(tableArn);
  });

  it('gives the public routes (health, the OpenAPI document) no data access and no cursor key', () => {
    const open = routes.filter((r) => !r.auth && r.protocol !== 'mcp');
    expect(open.map((r) => r.path).sort()).toEqual(['/health', '/v1/openapi.json']);
    for (const r of open) {
      const id = functionIdByDescription(built, `rts ${r.method} ${r.path}`);
      expect(actionsOf(roleStatements(built, id)).filter((a) => !a.startsWith('logs:') && !a.startsWith('xray:'))).toEqual([]);
      const env = built.resources[id].Properties!.Environment.Variables;
      expect('TABLE_NAME' in env).toBe(false);
      expect(Object.keys(env).filter((k) => k.startsWith('RTS_CURSOR_SECRET'))).toEqual([]);
      expect(built.resources[id].Properties!.Layers).toBeUndefined();
    }
  });

  it('gives the MCP endpoint the table and nothing else: no queue, no bus, no cursor key', () => {
    const id = functionIdByDescription(built, 'rts POST /v1/mcp/{run_id}/{attempt}');
    const actions = actionsOf(roleStatements(built, id)).filter((a) => !a.startsWith('logs:') && !a.startsWith('xray:'));
    expect(actions.every((a) => a.startsWith('dynamodb:'))).toBe(true);
    expect(actions).toEqual(expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem']));
    const env = built.resources[id].Properties!.Environment.Variables;
    expect(Object.keys(env).filter((k) => k.startsWith('RTS_CURSOR_SECRET'))).toEqual([]);
  });

  it('lets each list route read the cursor secret (GetSecretValue on that secret, nothing else of Secrets Manager)', () => {
    const [[secretId]] = ofType(built, 'AWS::SecretsManager::Secret');
    for (const r of routes.filter((x) => x.list)) {
      const statements = roleStatements(built, functionIdByDescription(built, `rts ${r.method} ${r.path}`));
      const secrets = statements.filter((s) => actionsOf([s]).some((a) => a.startsWith('secretsmanager:')));

      expect(secrets.map((s) => [actionsOf([s]), s.Resource])).toEqual([[['secretsmanager:GetSecretValue'], { Ref: secretId }]]);
    }
  });

  it('gives no other function (routes, authorizer, workers, dashboard) the cursor secret, its ARN or the extension', () => {
    const lists = new Set(routes.filter((r) => r.list).map((r) => `rts ${r.method} ${r.path}`));
    const others = ofType(built, 'AWS::Lambda::Function').filter(([, fn]) => !lists.has(fn.Properties!.Description));

    expect(others.length).toBeGreaterThan(routes.length - lists.size);
    for (const [id, fn] of others) {
      expect(actionsOf(roleStatements(built, id)).filter((a) => a.startsWith('secretsmanager:'))).toEqual([]);
      expect(Object.keys(fn.Properties!.Environment.Variables).filter((k) => /CURSOR|SECRETS/.test(k))).toEqual([]);
      expect(fn.Properties!.Layers).toBeUndefined();
    }
  });

  it('sets TABLE_NAME where the table is granted, and the queue URL and bus name only where granted', () => {
    for (const r of routes) {
      const env = built.resources[functionIdByDescription(built, `rts ${r.method} ${r.path}`)].Properties!.Environment.Variables;
      if (r.table === 'none') expect('TABLE_NAME' in env).toBe(false);
      else expect(env.TABLE_NAME).toEqual({ Ref: tableId });
      expect('REPLAY_QUEUE_URL' in env).toBe(r.queue === true);
      expect('EVENT_BUS_NAME' in env).toBe(r.bus === true);
    }
  });
});

describe('non-route functions', () => {
  it('lets the authorizer only read the table', () => {
    expect(
      actionsOf(roleStatements(built, functionIdByDescription(built, 'rts authorizer')))
        .filter((a) => a.startsWith('dynamodb:'))
        .sort(),
    ).toEqual([...READS].sort());
  });

  it('lets the replay dead-letter consumer write the table and publish events, not enqueue', () => {
    const actions = actionsOf(roleStatements(built, functionIdByDescription(built, 'rts replay dead-letter consumer')));

    for (const a of [...READS, ...WRITES, 'events:PutEvents']) expect(actions).toContain(a);
    expect(actions).not.toContain('sqs:SendMessage');
  });

  it('lets the replay worker write the table, publish events, and send to the replay queue only (messages over a project share, fan-out parts, hand-offs, sweeps)', () => {
    const statements = roleStatements(built, functionIdByDescription(built, 'rts replay worker'));
    const actions = actionsOf(statements);

    for (const a of [...READS, ...WRITES, 'events:PutEvents']) expect(actions).toContain(a);
    const send = statements.filter((s) => actionsOf([s]).includes('sqs:SendMessage'));
    const [queueId] = ofType(built, 'AWS::SQS::Queue').find(([, q]) => q.Properties!.RedrivePolicy)!;
    expect(send.map((s) => s.Resource)).toEqual([{ 'Fn::GetAtt': [queueId, 'Arn'] }]);
  });

  it('lets the webhook delivery function write the table but not publish or enqueue to the replay queue', () => {
    const statements = roleStatements(built, functionIdByDescription(built, 'rts webhook delivery'));
    const actions = actionsOf(statements);

    for (const a of [...READS, ...WRITES]) expect(actions).toContain(a);
    expect(actions).not.toContain('events:PutEvents');
    // Its only SendMessage is to its own dead-letter queue (failed async invocations).
    const send = statements.filter((s) => actionsOf([s]).includes('sqs:SendMessage'));
    const rule = ofType(built, 'AWS::Events::Rule')[0][1];
    expect(send.map((s) => s.Resource)).toEqual([rule.Properties!.Targets[0].DeadLetterConfig.Arn]);
  });

  it('gives the dashboard function no data access', () => {
    const actions = actionsOf(roleStatements(built, functionIdByDescription(built, 'rts GET /dashboard')));

    expect(actions.filter((a) => !a.startsWith('logs:') && !a.startsWith('xray:'))).toEqual([]);
  });
});

describe('execution roles', () => {
  it('attach no managed policies and write only to their own log group', () => {
    for (const [id, fn] of ofType(built, 'AWS::Lambda::Function')) {
      const roleId = fn.Properties!.Role['Fn::GetAtt'][0];
      expect(built.resources[roleId].Properties!.ManagedPolicyArns).toBeUndefined();
      const logs = roleStatements(built, id).filter((s) => actionsOf([s]).some((a) => a.startsWith('logs:')));
      expect(logs).toHaveLength(1);
      expect(logs[0].Resource).toEqual({ 'Fn::GetAtt': [fn.Properties!.LoggingConfig.LogGroup.Ref, 'Arn'] });
    }
  });
});
