// The structured logger (Powertools); level from POWERTOOLS_LOG_LEVEL / LOG_LEVEL, quiet by default locally and in tests.
import { Logger } from '@aws-lambda-powertools/logger';

export const logger = new Logger({ serviceName: 'rts' });
