// The REQUEST Lambda authorizer: X-API-Key + X-Project-Id -> the project id in the context (also the usage identifier).
import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent, Context } from 'aws-lambda';
import { authenticate } from '../core/auth';
import { ServiceUnavailableError, UnauthorizedError } from '../core/errors';
import { getDeps } from '../wiring/deps';
import { addLambdaContext, logger } from '../wiring/logger';

function header(headers: Record<string, string | undefined> | null, name: string): string | undefined {
  if (!headers) return undefined;
  const wanted = name.toLowerCase();
  for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() === wanted) return v;
  return undefined;
}

/** Allows every method of the stage: the result is cached per header pair for 300 s, across routes. */
function stageWildcard(methodArn: string): string {
  const [arnPrefix, apiId, stage] = methodArn.split('/');
  return `${arnPrefix}/${apiId}/${stage}/*/*`;
}

export const handler = async (event: APIGatewayRequestAuthorizerEvent, context?: Context): Promise<APIGatewayAuthorizerResult> => {
  addLambdaContext(context);
  try {
    const projectId = await authenticate(getDeps().projects, header(event.headers, 'x-api-key'), header(event.headers, 'x-project-id'));
    return {
      principalId: projectId,
      policyDocument: {
        Version: '2012-10-17',
        Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: stageWildcard(event.methodArn) }],
      },
      context: { projectId },
      usageIdentifierKey: projectId,
    };
  } catch (err) {
    // API Gateway turns this exact message into its UNAUTHORIZED gateway response (401, the API's error body).
    if (err instanceof UnauthorizedError) throw new Error('Unauthorized');
    // Anything else (the store failing for a moment) must not become a 401 that the gateway caches for 300 s:
    // API Gateway answers AUTHORIZER_FAILURE (mapped to 503 service_unavailable) and caches nothing.
    logger.error('authorizer failure: the credentials could not be checked', { error: err as Error });
    throw new ServiceUnavailableError('The credentials could not be checked; retry shortly.');
  }
};
