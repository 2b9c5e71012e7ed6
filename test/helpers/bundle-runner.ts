// Child process of test/infra/bundles-e2e.test.ts, run by the Lambda runtime's Node: the local service (embedded store,
// gateway, in-process queue and bus) with every handler required from the bundle `cdk synth` wrote for it, and the AWS
// bridge standing in for SQS and EventBridge, and a stand-in for the Parameters and Secrets extension that serves the
// cursor secret to the list functions. The test compiles this file with esbuild, so no loader hook is installed
// in this process and the bundles run exactly as written.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BusEvent } from '../../functions/core/events';
import { DEADLINE_MARGIN_MS } from '../../functions/core/replay/deadline';
import { resolveHandlersWith } from '../../functions/local/gateway';
import { startLocalService, type LocalService } from '../../functions/local/server';
import { startAwsBridge, type AwsBridge } from './aws-bridge';
import { startSecretsExtension, type ExtensionRequest } from './secrets-extension';

/** What the test read from the synthesized template, handed over as a JSON file. */
export interface RunnerManifest {
  /** Handler module path (`functions/http/get-health`, `functions/workers/replay-worker`...) -> its bundle's file. */
  handlers: Record<string, string>;
  /** The functions' environment: literal values as synthesized, null for the CloudFormation values stood in for here. */
  environment: Record<string, string | null>;
  /** The replay queue's redrive maxReceiveCount. */
  maxReceives: number;
  /** EventPattern of the rule in front of webhook delivery. */
  eventPattern: Record<string, unknown>;
  /**
   * The replay worker's time limit, ms: each of its invocations gets a context whose getRemainingTimeInMillis counts
   * down from it (the worker's deadline is that less DEADLINE_MARGIN_MS). Default: the local queue's (15 minutes).
   */
  replayBudgetMs?: number;
}

export type RunnerReport =
  | { type: 'ready'; url: string; projectId: string; apiKey: string; dynamodbEndpoint: string; tableName: string }
  | {
      type: 'stats';
      queue: { sent: number; received: number; failed: number; deadLettered: number };
      bridge: AwsBridge['calls'];
      /** Every event the bundles published, in order. */
      events: BusEvent[];
      /** The bundle files required so far (from the manifest, nothing else). */
      loaded: string[];
      /** Every request the extension stand-in answered (the list functions reading the cursor secret). */
      secretReads: ExtensionRequest[];
    }
  | { type: 'outage' }
  | { type: 'failed'; error: string };

export type RunnerCommand =
  | { type: 'stats' }
  /** A bus outage for one campaign's run.completed events, until the queue dead-letters a message; answered `outage`. */
  | { type: 'outage'; campaignId: string }
  | { type: 'close' };

const TABLE_NAME = 'rts-bundles';
/** The cursor secret's ARN as the runner's stand-in for the stack's `Ref` (the extension stand-in serves it). */
const CURSOR_SECRET_ARN = 'arn:aws:secretsmanager:us-east-1:000000000000:secret:CursorSecret-bundles';
/** Lambda gives every function a session token; the extension accepts only requests that carry it. */
const SESSION_TOKEN = 'bundles-e2e-session-token';

/** Variables whose stand-in is the gateway's URL: set once it listens (handlers read them at first use). */
const AFTER_START = new Set(['RTS_PUBLIC_URL', 'RTS_DASHBOARD_URL']);

function send(report: RunnerReport): void {
  process.send?.(report);
}

async function main(): Promise<void> {
  const manifest = JSON.parse(readFileSync(process.argv[2], 'utf8')) as RunnerManifest;
  resolveHandlersWith((modulePath) => {
    const file = manifest.handlers[modulePath];
    if (!file) throw new Error(`no bundle was synthesized for ${modulePath}`);
    return file;
  });

  const bridge = await startAwsBridge({ queueName: 'rts-replay', busName: 'rts-events', eventPattern: manifest.eventPattern });
  // The bundles' SQS and EventBridge clients are built with no endpoint: the SDK's standard variables point them here.
  process.env.AWS_ENDPOINT_URL_SQS = bridge.endpoint;
  process.env.AWS_ENDPOINT_URL_EVENTBRIDGE = bridge.endpoint;
  const extension = await startSecretsExtension({ token: SESSION_TOKEN });
  extension.setSecret(CURSOR_SECRET_ARN, randomBytes(36).toString('base64url'));

  // Every function's variables, in one process: literal values as synthesized, local stand-ins for CloudFormation's.
  let url = '';
  const standIns: Record<string, () => string> = {
    TABLE_NAME: () => TABLE_NAME,
    REPLAY_QUEUE_URL: () => bridge.queueUrl,
    EVENT_BUS_NAME: () => bridge.busName,
    RTS_CURSOR_SECRET_ARN: () => CURSOR_SECRET_ARN,
    RTS_PUBLIC_URL: () => url,
    RTS_DASHBOARD_URL: () => `${url}/dashboard`,
  };
  const synthesized = Object.entries(manifest.environment);
  for (const [k, v] of synthesized) if (v !== null) process.env[k] = v;
  const tokens = synthesized.filter(([, v]) => v === null).map(([k]) => k);
  const unknown = tokens.filter((k) => !standIns[k]);
  if (unknown.length) throw new Error(`the stack sets ${unknown.join(', ')} from CloudFormation values this runner has no local stand-in for`);
  for (const k of tokens) if (!AFTER_START.has(k)) process.env[k] = standIns[k]();
  // The layer's extension listens on the port the stack sets (2773); its stand-in on the one it was given.
  process.env.PARAMETERS_SECRETS_EXTENSION_HTTP_PORT = String(extension.port);
  process.env.AWS_SESSION_TOKEN = SESSION_TOKEN;

  const dataDir = mkdtempSync(join(tmpdir(), 'rts-bundles-'));
  let service: LocalService;
  try {
    service = await startLocalService({
      host: '127.0.0.1',
      port: 0,
      inMemory: true,
      dataDir,
      tableName: TABLE_NAME,
      writeCredentials: false,
      queue: {
        maxReceives: manifest.maxReceives,
        redeliveryDelayMs: 50,
        // The local queue budgets each delivery its run deadline plus the margin.
        ...(manifest.replayBudgetMs === undefined ? {} : { runDeadlineMs: manifest.replayBudgetMs - DEADLINE_MARGIN_MS }),
      },
    });
  } catch (err) {
    rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
  bridge.attach(service.queue, service.bus);
  const events: BusEvent[] = [];
  service.bus.onEvent((e) => events.push(e));
  const bundleFiles = new Set(Object.values(manifest.handlers));
  url = service.url;
  for (const k of tokens) if (AFTER_START.has(k)) process.env[k] = standIns[k]();

  let closing = false;
  const close = async () => {
    if (closing) return;
    closing = true;
    await service.close();
    await bridge.close();
    await extension.close();
    rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  };
  process.on('message', (cmd: RunnerCommand) => {
    if (cmd.type === 'stats') {
      const loaded = Object.keys(require.cache).filter((f) => bundleFiles.has(f));
      send({ type: 'stats', queue: { ...service.queue.stats }, bridge: { ...bridge.calls }, events, loaded, secretReads: [...extension.requests] });
    }
    if (cmd.type === 'outage') {
      const deadLettered = service.queue.stats.deadLettered;
      bridge.refuseEvents(
        (e, detailType) =>
          detailType === 'run.completed' && e.envelope.data.campaign_id === cmd.campaignId && service.queue.stats.deadLettered === deadLettered,
      );
      send({ type: 'outage' });
    }
    if (cmd.type === 'close') void close();
  });
  // The test process went away without asking: do not outlive it.
  process.on('disconnect', () => void close());
  send({
    type: 'ready',
    url: service.url,
    projectId: service.projectId,
    apiKey: service.apiKey,
    dynamodbEndpoint: service.dynamodbEndpoint,
    tableName: service.tableName,
  });
}

main().catch((err: Error) => {
  send({ type: 'failed', error: err.stack ?? String(err) });
  process.exitCode = 1;
  setTimeout(() => process.exit(1), 100);
});
