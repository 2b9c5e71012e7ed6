// What the stack the standards choose costs before any rts code runs: reference bundles of the parts every function
// of a kind carries (Powertools' logger and the middy chain that gives it its context, a zod/mini schema, the second and third AWS client), built
// and measured as the functions are, each against the minimal bundle. They bound from below what the functions' cold
// init can reach (docs/benchmarks.md#lambda-bundles).

/** One DynamoDB document client at module scope. */
const CLIENT = `
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));
`;

/** The minimal bundle everything is compared with: one DynamoDB document client, one GetItem. */
export const BASELINE_SOURCE = `${CLIENT}export const handler = async () => doc.send(new GetCommand({ TableName: 't', Key: { pk: 'a', sk: 'b' } }));
`;

/** The baseline's client and its GetItem, for the parts to call. */
const DOC = `${CLIENT}const get = () => doc.send(new GetCommand({ TableName: 't', Key: { pk: 'a', sk: 'b' } }));
`;

/**
 * The logger as every function has it (functions/wiring/logger.ts: Powertools' Logger, built at the first line) and
 * the middy chain that gives it each invocation's context.
 */
const LOGGER_CHAIN = `
import middy from '@middy/core';
import { lambdaContext } from './functions/wiring/logger';
`;

/** A query filter's size of zod/mini schema: the run listing's three optional fields, one an enum and one a pattern. */
const FILTER_SCHEMA = `
import * as z from 'zod/mini';
const filter = z.object({
  status: z.optional(z.enum(['queued', 'running', 'completed', 'failed', 'cancelled'])),
  campaign_id: z.optional(z.string().check(z.regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/))),
  limit: z.optional(z.string()),
});
`;

/** The bus and queue clients, built on first use as functions/adapters/aws.ts builds them. */
const EVENTBRIDGE = `
import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
let bus: EventBridgeClient | undefined;
const publish = () => (bus ??= new EventBridgeClient({})).send(new PutEventsCommand({ Entries: [] }));
`;
const SQS = `
import { SQSClient, SendMessageCommand } from '@aws-sdk/client-sqs';
let queue: SQSClient | undefined;
const enqueue = () => (queue ??= new SQSClient({})).send(new SendMessageCommand({ QueueUrl: 'q', MessageBody: 'm' }));
`;

export interface StackPart {
  /** The row's name in the bundle table: in parentheses, as the baseline's, so no summary counts it as a function. */
  name: string;
  /** Which functions carry at least this. */
  carriedBy: string;
  source: string;
}

/**
 * Each reference bundle: the baseline plus what a kind of function cannot do without. None holds a line of rts code
 * but the logger's wiring (functions/wiring/logger.ts), which every function shares.
 */
export const STACK_PARTS: readonly StackPart[] = [
  {
    name: '(stack: + logger in a middy chain)',
    carriedBy: 'every HTTP function',
    source: `${DOC}${LOGGER_CHAIN}
export const handler = middy(async () => get()).use(lambdaContext());`,
  },
  {
    name: '(stack: + logger, middy, a zod filter)',
    carriedBy: 'every HTTP function that validates a body or query filters',
    source: `${DOC}${LOGGER_CHAIN}${FILTER_SCHEMA}
export const handler = middy(async (event: unknown) => { filter.parse(event); return get(); }).use(lambdaContext());`,
  },
  {
    name: '(stack: + logger, middy, a zod filter, EventBridge)',
    carriedBy: 'the HTTP functions that validate and publish',
    source: `${DOC}${LOGGER_CHAIN}${FILTER_SCHEMA}${EVENTBRIDGE}
export const handler = middy(async (event: unknown) => { filter.parse(event); await publish(); return get(); }).use(lambdaContext());`,
  },
  {
    name: '(stack: + logger, SQS, EventBridge)',
    carriedBy: 'the replay worker',
    source: `${DOC}${SQS}${EVENTBRIDGE}
import { addLambdaContext } from './functions/wiring/logger';
export const handler = async (_event: unknown, context: never) => { addLambdaContext(context); await enqueue(); await publish(); return get(); };`,
  },
];
