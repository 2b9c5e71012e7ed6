// Lets through to dynalite only the requests that carry the store's per-start secret: any local user can open a
// loopback connection, but only the service that started the store (and `rts admin`, which reads the secret from the
// data folder only its owner can open) can read or write it. Plain JavaScript: the store child is forked without the
// TypeScript loader and requires it too.
const { timingSafeEqual } = require('node:crypto');

/** What a refused request gets: the error DynamoDB answers for credentials it does not know. */
const REFUSAL = JSON.stringify({
  __type: 'com.amazonaws.dynamodb.v20120810#UnrecognizedClientException',
  message: 'The security token included in the request is invalid.',
});

/**
 * Whether a request's Authorization header carries `expected` (64 hex digits, as bytes) as its SigV4 Signature: the
 * service's store client sends the secret there instead of a signature the store would not check.
 */
function carriesSecret(authorization, expected) {
  const m = /(?:^|[\s,])Signature=([0-9a-f]{64})(?=$|[\s,])/.exec(authorization || '');
  return m !== null && timingSafeEqual(Buffer.from(m[1]), expected);
}

/**
 * Puts the check in front of the server's request handlers (dynalite's): a request without the secret is answered 403
 * before any of them sees it, and its connection is closed without reading its body.
 */
function guardStore(server, secret) {
  if (!/^[0-9a-f]{64}$/.test(secret || '')) throw new Error('the store secret must be 64 lowercase hex digits');
  const expected = Buffer.from(secret);
  const handlers = server.listeners('request');
  server.removeAllListeners('request');
  server.on('request', (req, res) => {
    if (carriesSecret(req.headers.authorization, expected)) {
      for (const handler of handlers) handler.call(server, req, res);
      return;
    }
    res.writeHead(403, {
      'Content-Type': 'application/x-amz-json-1.0',
      'Content-Length': Buffer.byteLength(REFUSAL),
      Connection: 'close',
    });
    res.end(REFUSAL);
  });
  return server;
}

module.exports = { guardStore };
