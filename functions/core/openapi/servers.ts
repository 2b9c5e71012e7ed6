// The servers of the OpenAPI document: the local default when it is generated offline, the requested base URL when served.

/** The local service's default address: the document served by a running service names its own base URL instead. */
export const DEFAULT_SERVER = { url: 'http://127.0.0.1:8787', description: 'The local service (npm start) at its default address.' };

/** The document with `serverUrl` (the base URL it was requested at) as its only server; as it is without one. */
export function servedAt(document: Record<string, unknown>, serverUrl?: string): Record<string, unknown> {
  return serverUrl ? { ...document, servers: [{ url: serverUrl, description: 'This service.' }] } : document;
}
