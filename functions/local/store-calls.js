// The embedded store's calls without HTTP. dynalite answers a call in its HTTP handler: it reads the body, checks the
// content type, the `X-Amz-Target` and the Authorization header's shape, then runs the operation's type checks,
// validations and action. answerCall() does the same from the target and the body on: the local service's own
// DynamoDB client sends its calls this way (over the store child's IPC channel, or as a function call to a store in
// its own process), which takes Node's HTTP client and server off every call. dynalite's HTTP server stays up beside
// it on the same store for every other client (other processes, `rts admin`, the tests' tools), behind its secret.
// Plain JavaScript: the store child is forked without the TypeScript loader and requires it too.
const db = require('dynalite/db');
const validations = require('dynalite/validations');

/** The API versions and operations dynalite's HTTP handler accepts in `X-Amz-Target`, and the same limit on bodies. */
const API_VERSIONS = ['DynamoDB_20111205', 'DynamoDB_20120810'];
const OPERATIONS = [
  'BatchGetItem',
  'BatchWriteItem',
  'CreateTable',
  'DeleteItem',
  'DeleteTable',
  'DescribeTable',
  'DescribeTimeToLive',
  'GetItem',
  'ListTables',
  'PutItem',
  'Query',
  'Scan',
  'TagResource',
  'UntagResource',
  'ListTagsOfResource',
  'UpdateItem',
  'UpdateTable',
];
const MAX_REQUEST_BYTES = 16 * 1024 * 1024;

const actions = {};
const actionValidations = {};
for (const operation of OPERATIONS) {
  const name = validations.toLowerFirst(operation);
  actions[name] = require(`dynalite/actions/${name}`);
  actionValidations[name] = require(`dynalite/validations/${name}`);
}

/**
 * Runs `start` (which calls dynalite()) and returns what it returns with the store dynalite created in it, which
 * dynalite keeps to itself: answerCall() needs the very store its HTTP server serves.
 */
function withStore(start) {
  const create = db.create;
  let store;
  db.create = (options) => (store = create(options));
  let server;
  try {
    server = start();
  } finally {
    db.create = create;
  }
  if (!store) throw new Error('dynalite created no store (functions/local/store-calls.js)');
  return { server, store };
}

const answer = (status, data) => ({ status, body: JSON.stringify(data) });
const coral = (type) => ({ __type: `com.amazon.coral.service#${type}` });

/**
 * The answer to one call, `{status, body}`, as dynalite's HTTP handler would give it to the same target and body
 * (the service's client always sends the JSON content type and a well-formed Authorization header). An error that
 * is not one of DynamoDB's (dynalite would crash its process on it) is a 500 InternalServerError, which the SDK retries.
 */
function answerCall(store, target, body) {
  return new Promise((resolve) => {
    const fail = (err) =>
      resolve(
        answer(500, {
          __type: 'com.amazonaws.dynamodb.v20120810#InternalServerError',
          message: `the embedded store failed: ${err && err.message ? err.message : String(err)}`,
        }),
      );
    try {
      if (typeof body !== 'string') return resolve(answer(400, coral('SerializationException')));
      if (Buffer.byteLength(body) > MAX_REQUEST_BYTES) return resolve({ status: 413, body: '' });
      let data;
      if (body) {
        try {
          data = JSON.parse(body);
        } catch {
          return resolve(answer(400, coral('SerializationException')));
        }
      }
      const parts = String(target || '').split('.');
      if (parts.length !== 2 || !API_VERSIONS.includes(parts[0]) || !OPERATIONS.includes(parts[1])) {
        return resolve(answer(400, coral('UnknownOperationException')));
      }
      if (!body) return resolve(answer(400, coral('SerializationException')));
      const action = validations.toLowerFirst(parts[1]);
      const checks = actionValidations[action];
      try {
        data = validations.checkTypes(data, checks.types);
        validations.checkValidations(data, checks.types, checks.custom, store);
      } catch (err) {
        return err && err.statusCode ? resolve(answer(err.statusCode, err.body)) : fail(err);
      }
      actions[action](store, data, (err, out) => {
        try {
          if (err && err.statusCode) resolve(answer(err.statusCode, err.body));
          else if (err) fail(err);
          else resolve(answer(200, out));
        } catch (thrown) {
          fail(thrown);
        }
      });
    } catch (err) {
      fail(err);
    }
  });
}

module.exports = { withStore, answerCall };
