// Runs dynalite in a child process of the local service, so the store and the API each get a core of their own.
// Plain JavaScript: it is forked with node directly, without the TypeScript loader.
const dynalite = require('dynalite');

const opts = JSON.parse(process.argv[2] || '{}');
const server = dynalite({ path: opts.path, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
const stop = () => server.close(() => process.exit(0));
server.on('error', (err) => {
  process.send?.({ error: err.message });
  process.exit(1);
});
server.listen(opts.port || 0, opts.host || '127.0.0.1', () => process.send?.({ port: server.address().port }));
// The parent asks to stop, or is gone (its IPC channel closed): either way the store stops with it.
process.on('message', (m) => m === 'close' && stop());
process.on('disconnect', stop);
