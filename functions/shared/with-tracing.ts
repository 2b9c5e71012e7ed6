// Side-effect import for the functions traced in X-Ray beyond Lambda's own segment: every AWS SDK client they build
// and every request of the SSRF-guarded sender get a subsegment. Imported by the replay worker, the dead-letter
// consumer and webhook delivery only: the X-Ray SDK adds ~135 KB to a bundle and ~30 ms when it loads, which the
// HTTP routes (the largest near their size budget, all on a user's request path) do not carry.
import { instrumentAwsClients } from '../adapters/aws';
import { wrapGuardedSends } from '../adapters/http/guarded-sender';
import { traceAwsClient, traceOutbound } from './tracer';

instrumentAwsClients(traceAwsClient);
wrapGuardedSends(traceOutbound);
