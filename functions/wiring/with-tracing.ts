// Side-effect import for the functions traced in X-Ray beyond Lambda's own segment: every AWS SDK client they build
// and every request of the SSRF-guarded sender get a subsegment. Imported by the replay worker, the dead-letter
// consumer and webhook delivery only: the X-Ray SDK adds weight to a bundle and time when it loads (sizes in
// docs/benchmarks.md#lambda-bundles), which the HTTP routes, all on a user's request path, do not carry.
import { instrumentAwsClients } from '../adapters/aws';
import { wrapGuardedSends } from '../adapters/http/guarded-sender';
import { traceAwsClient, traceOutbound } from './tracer';

instrumentAwsClients(traceAwsClient);
wrapGuardedSends(traceOutbound);
