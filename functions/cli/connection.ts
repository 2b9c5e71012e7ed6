// Where the CLI's API commands find the service: RTS_API_URL, RTS_API_KEY and RTS_PROJECT_ID, each one left unset taken
// from the local service's credentials file (<RTS_DATA_DIR or .rts>/credentials.json), so the quick start needs no export.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { ClientOptions } from '../../packages/sdk/src/index';
import { CliClient } from './client';

interface CredentialsFile {
  base_url?: string;
  project_id?: string;
  api_key?: string;
}

/** The credentials file of the local service on the data folder RTS_DATA_DIR (default .rts), when there is one. */
export function localCredentials(env: NodeJS.ProcessEnv = process.env): CredentialsFile | undefined {
  try {
    const parsed = JSON.parse(readFileSync(join(resolve(env.RTS_DATA_DIR || '.rts'), 'credentials.json'), 'utf8')) as unknown;
    return typeof parsed === 'object' && parsed !== null ? (parsed as CredentialsFile) : undefined;
  } catch {
    return undefined;
  }
}

/** The client's base URL, key and project: the environment first, the local credentials file for what it leaves unset. */
export function connectionOptions(env: NodeJS.ProcessEnv = process.env): Pick<ClientOptions, 'baseUrl' | 'apiKey' | 'projectId'> {
  const complete = env.RTS_API_URL && env.RTS_API_KEY && env.RTS_PROJECT_ID;
  const file = complete ? undefined : localCredentials(env);
  return {
    baseUrl: env.RTS_API_URL || file?.base_url,
    apiKey: env.RTS_API_KEY || file?.api_key,
    projectId: env.RTS_PROJECT_ID || file?.project_id,
  };
}

/**
 * A client for a command. Throws (`missing configuration: ...`) when neither the environment nor a local credentials
 * file names the service.
 */
export function cliClient(env: NodeJS.ProcessEnv = process.env, opts: { timeoutMs?: number } = {}): CliClient {
  return new CliClient({ ...connectionOptions(env), ...opts });
}

/** Where a dashboard link points: RTS_DASHBOARD_URL, else `<api base>/dashboard`. */
export function dashboardBase(client: { baseUrl: string }, env: NodeJS.ProcessEnv = process.env): string {
  return (env.RTS_DASHBOARD_URL || `${client.baseUrl.replace(/\/+$/, '')}/dashboard`).replace(/\/+$/, '');
}
