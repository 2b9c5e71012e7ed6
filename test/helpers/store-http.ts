// One call to the embedded store over its HTTP endpoint, as the service's client sends it (the store's secret as the
// signature): for tests that compare or cross-check the store's other ways in.
import type { EmbeddedStore } from '../../functions/local/store';

export async function storeOverHttp(
  store: Pick<EmbeddedStore, 'endpoint' | 'secret'>,
  target: string,
  body: string,
): Promise<{ status: number; body: string }> {
  const res = await fetch(store.endpoint, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-amz-json-1.0',
      'x-amz-target': target,
      'x-amz-date': '20250101T000000Z',
      authorization: `AWS4-HMAC-SHA256 Credential=local/20250101/local/dynamodb/aws4_request, SignedHeaders=host;x-amz-date, Signature=${store.secret}`,
    },
    body,
  });
  return { status: res.status, body: await res.text() };
}
