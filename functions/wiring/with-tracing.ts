// Side-effect import for the functions traced in X-Ray beyond Lambda's own segment: every AWS SDK client they build
// and every request of the SSRF-guarded sender get a subsegment (functions/adapters/xray/, docs/deploy-aws.md#tracing).
// Imported by the replay worker, the dead-letter consumer and webhook delivery, whose work is calls to AWS, agents and
// receivers; an HTTP route's trace is Lambda's segment of its invocation.
import { instrumentAwsClients } from '../adapters/aws';
import { wrapGuardedSends } from '../adapters/http/guarded-sender';
import { traceAwsClient, traceOutbound } from './tracer';

instrumentAwsClients(traceAwsClient);
wrapGuardedSends(traceOutbound);
