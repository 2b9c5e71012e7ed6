// Reads a synthesized rts template the way the cloud wires it: which Lambda (and so which bundle) API Gateway invokes for
// each route and as authorizer, which ones the replay queue and its dead-letter queue drive, which one the bus rule targets.
import * as path from 'node:path';
import { routes, workerHandlers } from '../../lib/routes';
import type { RunnerManifest } from '../helpers/bundle-runner';
import { integratedFunctionId, methodsByRoute, type Built } from './stack-fixture';

type Resource = { Type: string; Properties?: Record<string, any>; Metadata?: Record<string, any> };
export type Template = { Resources: Record<string, Resource> };

export interface SynthesizedFunction {
  logicalId: string;
  /** e.g. `nodejs22.x` */
  runtime: string;
  /** The bundle file the runtime loads (`Handler` `index.handler` -> `<asset>/index.js`). */
  file: string;
  /** The export the runtime calls. */
  exportName: string;
  environment: Record<string, unknown>;
}

export interface SynthesizedService {
  /** Handler module path (as lib/routes.ts and loadHandler name it) -> the function that runs it. */
  functions: Map<string, SynthesizedFunction>;
  maxReceives: number;
  eventPattern: Record<string, unknown>;
}

const getAttId = (value: unknown): string | undefined => /"Fn::GetAtt":\["([^"]+)","Arn"\]/.exec(JSON.stringify(value ?? null))?.[1];

function only<T>(items: T[], what: string): T {
  if (items.length !== 1) throw new Error(`expected one ${what} in the template, found ${items.length}`);
  return items[0];
}

/** Maps every handler module to the function and bundle the template wires to it; throws when one is missing. */
export function synthesizedService(template: Template, outdir: string): SynthesizedService {
  const resources = template.Resources;
  const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);
  const fn = (logicalId: string | undefined, what: string): SynthesizedFunction => {
    const r = logicalId ? resources[logicalId] : undefined;
    if (r?.Type !== 'AWS::Lambda::Function') throw new Error(`${what}: no Lambda function wired (${logicalId})`);
    const p = r.Properties!;
    const assetDir: string | undefined =
      r.Metadata?.['aws:asset:path'] ?? (p.Code?.S3Key ? `asset.${String(p.Code.S3Key).replace(/\.zip$/, '')}` : undefined);
    if (!assetDir) throw new Error(`${what}: ${logicalId} has no local asset`);
    const [file, exportName] = String(p.Handler).split(/\.(?=[^.]+$)/);
    return {
      logicalId: logicalId!,
      runtime: p.Runtime,
      file: path.join(outdir, assetDir, `${file}.js`),
      exportName,
      environment: p.Environment?.Variables ?? {},
    };
  };

  const functions = new Map<string, SynthesizedFunction>();
  const methods = methodsByRoute({ resources } as unknown as Built);
  for (const route of routes) {
    const key = `${route.method} ${route.path}`;
    const method = methods.get(key);
    functions.set(`functions/http/${route.handler}`, fn(method && integratedFunctionId(method), key));
  }
  const dashboard = methods.get('GET /dashboard');
  functions.set(workerHandlers.dashboard, fn(dashboard && integratedFunctionId(dashboard), 'GET /dashboard'));
  const [, authorizer] = only(ofType('AWS::ApiGateway::Authorizer'), 'API authorizer');
  functions.set(workerHandlers.authorizer, fn(getAttId(authorizer.Properties!.AuthorizerUri), 'authorizer'));

  // The replay queue is the one with a redrive policy; its dead-letter queue is that policy's target.
  const [replayQueueId, replayQueue] = only(
    ofType('AWS::SQS::Queue').filter(([, q]) => q.Properties?.RedrivePolicy),
    'queue with a redrive policy',
  );
  const deadLetterQueueId = getAttId(replayQueue.Properties!.RedrivePolicy.deadLetterTargetArn);
  const consumerOf = (queueId: string | undefined, what: string) => {
    const [, mapping] = only(
      ofType('AWS::Lambda::EventSourceMapping').filter(([, m]) => getAttId(m.Properties!.EventSourceArn) === queueId),
      `${what} event source`,
    );
    return fn(mapping.Properties!.FunctionName?.Ref, what);
  };
  functions.set(workerHandlers.replayWorker, consumerOf(replayQueueId, 'replay worker'));
  functions.set(workerHandlers.deadLetter, consumerOf(deadLetterQueueId, 'dead-letter consumer'));

  const [, rule] = only(ofType('AWS::Events::Rule'), 'event rule');
  const target = only(rule.Properties!.Targets as { Arn: unknown }[], 'event rule target');
  functions.set(workerHandlers.webhookDelivery, fn(getAttId(target.Arn), 'webhook delivery'));

  return { functions, maxReceives: Number(replayQueue.Properties!.RedrivePolicy.maxReceiveCount), eventPattern: rule.Properties!.EventPattern };
}

/**
 * The runner's manifest. The process runs every function, so it gets the union of their environments: literal values
 * as synthesized (two functions disagreeing on one is an error), CloudFormation values (Ref, Fn::Join...) as null.
 */
export function runnerManifest(service: SynthesizedService): RunnerManifest {
  const environment: Record<string, string | null> = {};
  for (const [module, f] of service.functions) {
    for (const [k, v] of Object.entries(f.environment)) {
      const value = typeof v === 'string' ? v : null;
      if (k in environment && environment[k] !== value)
        throw new Error(`${module}: ${k}=${JSON.stringify(v)} differs from another function's ${JSON.stringify(environment[k])}`);
      environment[k] = value;
    }
  }
  return {
    handlers: Object.fromEntries([...service.functions].map(([module, f]) => [module, f.file])),
    environment,
    maxReceives: service.maxReceives,
    eventPattern: service.eventPattern,
  };
}
