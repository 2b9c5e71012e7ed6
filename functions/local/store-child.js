// Runs dynalite in a child process of the local service, so the store and the API each get a core of their own.
// Plain JavaScript: it is forked with node directly, without the TypeScript loader. Its options, the per-start secret
// among them, come as the first IPC message (never on the command line, which every local user can read); every file
// it creates is private to its owner.
const dynalite = require('dynalite');
const { guardStore } = require('./store-guard');
const { keepParsedConditions } = require('./store-expressions');

keepParsedConditions();

process.umask(0o077);

let server;
const stop = () => (server ? server.close(() => process.exit(0)) : process.exit(0));

function start(opts) {
  server = guardStore(dynalite({ path: opts.path, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 }), opts.secret);
  server.on('error', (err) => {
    process.send?.({ error: err.message });
    process.exit(1);
  });
  server.listen(opts.port || 0, opts.host || '127.0.0.1', () => process.send?.({ port: server.address().port }));
}

// The parent sends the options, then asks to stop, or is gone (its IPC channel closed): either way the store stops with it.
process.on('message', (m) => {
  if (m === 'close') stop();
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
