// Runs dynalite in a child process of the local service, so the store and the API each get a core of their own.
// Plain JavaScript: it is forked with node directly, without the TypeScript loader. Its options, the per-start secret
// among them, come as the first IPC message (never on the command line, which every local user can read); every file
// it creates is private to its owner. The parent's own calls come over the same channel as `[id, target, body]` and
// are answered `[id, status, body]` (store-calls.js); every other client goes through the HTTP server and its secret.
const dynalite = require('dynalite');
const { answerCall, withStore } = require('./store-calls');
const { guardStore } = require('./store-guard');
const { keepParsedConditions } = require('./store-expressions');

keepParsedConditions();

process.umask(0o077);

let server;
let store;
const stop = () => (server ? server.close(() => process.exit(0)) : process.exit(0));

function start(opts) {
  const started = withStore(() => dynalite({ path: opts.path, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 }));
  store = started.store;
  server = guardStore(started.server, opts.secret);
  server.on('error', (err) => {
    process.send?.({ error: err.message });
    process.exit(1);
  });
  server.listen(opts.port || 0, opts.host || '127.0.0.1', () => process.send?.({ port: server.address().port }));
}

// The parent sends the options, then asks to stop, or is gone (its IPC channel closed): either way the store stops with it.
process.on('message', (m) => {
  if (Array.isArray(m)) {
    // Calls come only after the store has said it listens; an answer to a parent already gone is dropped.
    const [id, target, body] = m;
    void answerCall(store, target, body).then((a) => process.connected && process.send([id, a.status, a.body]));
  } else if (m === 'close') stop();
  else if (!server && m && typeof m === 'object') {
    try {
      start(m);
    } catch (err) {
      process.send?.({ error: err.message });
      process.exit(1);
    }
  }
});
process.on('disconnect', stop);
