// What the Lambda bundles carry in place of code no function runs: lib/constructs/esbuild-run.js (LEFT_OUT) replaces
// each such SDK module by the stubs of the same names here, and lib/constructs/trim-re2js.js parts of re2js by
// re2jsLeftOut / re2jsUnreached, at bundle time only; the CLI, local mode and the tests run from source with the real code. Each stub says why its module is unreachable in a Lambda of this service (the
// DynamoDB, SQS and EventBridge clients, on Node 22, in the Lambda environment) and throws, naming what was left out,
// if it is ever reached.

/** The error of every stub: which module the bundle left out. */
function leftOut(what: string): Error {
  return new Error(`${what} is not in this Lambda bundle: bundling left it out as unreachable (lib/constructs/esbuild-run.js)`);
}

// @smithy/core/event-streams: the protocols import it only to (de)serialize an operation's event-stream member
// (RpcProtocol, HttpBindingProtocol); no operation of DynamoDB, SQS or EventBridge has one.
const EVENT_STREAMS = '@smithy/core/event-streams (event-stream operations)';

export class EventStreamSerde {
  constructor() {
    throw leftOut(EVENT_STREAMS);
  }
}

export function eventStreamSerdeProvider(): never {
  throw leftOut(EVENT_STREAMS);
}

// Sha256Js: the JavaScript SHA-256 @smithy/core's Sha256Node falls back to when node:crypto cannot createHash('sha256');
// Node 22 always can.
export class Sha256Js {
  constructor() {
    throw leftOut("@smithy/core's Sha256Js (the fallback for a Node without crypto)");
  }
}

// getInstanceMetadataRegion: asks EC2's instance metadata service for the region when AWS_REGION is not set, or (in the
// `auto` defaults mode) when AWS_EXECUTION_ENV is not; Lambda always sets both, and has no instance metadata service.
export async function getInstanceMetadataRegion(): Promise<never> {
  throw leftOut("@smithy/core's getInstanceMetadataRegion (the region from EC2 instance metadata)");
}

// EndpointCache (@aws-sdk/endpoint-cache, with mnemonist's LRU cache): the DynamoDB client builds one for endpoint
// discovery when it is built, but only the endpoint-discovery middleware reads it, and no command of the three clients
// adds that middleware. Building it is harmless; any use throws.
const ENDPOINT_CACHE = '@aws-sdk/endpoint-cache (endpoint discovery)';

export class EndpointCache {
  getEndpoint(_key: string): never {
    throw leftOut(ENDPOINT_CACHE);
  }
  get(_key: string): never {
    throw leftOut(ENDPOINT_CACHE);
  }
  set(_key: string, _endpoints: unknown): never {
    throw leftOut(ENDPOINT_CACHE);
  }
  delete(_key: string): never {
    throw leftOut(ENDPOINT_CACHE);
  }
  has(_key: string): never {
    throw leftOut(ENDPOINT_CACHE);
  }
  clear(): never {
    throw leftOut(ENDPOINT_CACHE);
  }
}

// resolveParamsForS3: S3's endpoint parameters (bucket names), applied only for a client whose serviceId is S3.
export async function resolveParamsForS3(): Promise<never> {
  throw leftOut("@smithy/core's resolveParamsForS3 (S3 endpoint parameters)");
}

type SigningOptions = { signingRegion?: string; [option: string]: unknown };
type Signer = {
  sign(request: unknown, options?: SigningOptions): Promise<unknown>;
  signWithCredentials(request: unknown, credentials: unknown, options?: SigningOptions): Promise<unknown>;
  presign(request: unknown, options?: SigningOptions): Promise<unknown>;
  presignWithCredentials(request: unknown, credentials: unknown, options?: SigningOptions): Promise<unknown>;
};

// SignatureV4MultiRegion (EventBridge's signer), given the SigV4 signer it wraps: it signs with SigV4a only for the
// signing region `*` of a global endpoint (a PutEvents with an EndpointId, which our publisher never sets), and that
// needs the CRT or @aws-sdk/signature-v4a, neither of which is installed: sigv4aDependency() is 'none', as the
// original answers here. Every other request is signed by the SigV4 signer, as the original signs it.
export function regionalSigner<O>(SigV4: new (options: O) => Signer) {
  const regional = (signer: Signer, options: SigningOptions): Signer => {
    if (options.signingRegion === '*') throw leftOut('SigV4a signing (@aws-sdk/signature-v4-multi-region, global endpoints)');
    return signer;
  };
  return class SignatureV4MultiRegion {
    static sigv4aDependency(): 'none' {
      return 'none';
    }
    readonly sigv4Signer: Signer;
    constructor(options: O) {
      this.sigv4Signer = new SigV4(options);
    }
    async sign(request: unknown, options: SigningOptions = {}): Promise<unknown> {
      return regional(this.sigv4Signer, options).sign(request, options);
    }
    async signWithCredentials(request: unknown, credentials: unknown, options: SigningOptions = {}): Promise<unknown> {
      return regional(this.sigv4Signer, options).signWithCredentials(request, credentials, options);
    }
    async presign(request: unknown, options: SigningOptions = {}): Promise<unknown> {
      return regional(this.sigv4Signer, options).presign(request, options);
    }
    async presignWithCredentials(request: unknown, credentials: unknown, options: SigningOptions = {}): Promise<unknown> {
      return regional(this.sigv4Signer, options).presignWithCredentials(request, credentials, options);
    }
  };
}

/** Why each class of re2js the bundles leave out is unreachable: lib/constructs/trim-re2js.js says it in full. */
const RE2JS_WHY: Record<string, string> = {
  DFA: 'the DFA: RE2JS.test, testExact, matches',
  DFAState: 'the DFA: RE2JS.test, testExact, matches',
  RE2Set: 'many patterns matched at once',
  TranslateRegExpString: 'RE2JS.translateRegExp',
  MachineUTF8Input: 'matching UTF-8 byte arrays',
  Utf8MatcherInput: 'matching UTF-8 byte arrays',
};

/**
 * A class of re2js left out (lib/constructs/trim-re2js.js: functions/core/replay/pattern.ts compiles, reads the program
 * size, finds and reads the end of a match, and reaches none of them): constructing it, calling it or reading any of
 * its properties throws.
 */
export function re2jsLeftOut(name: string): unknown {
  const fail = (): never => {
    throw leftOut(`re2js's ${name} (${RE2JS_WHY[name] ?? 'unused here'})`);
  };
  return new Proxy(class {}, { construct: fail, apply: fail, get: fail });
}

/** What a method of re2js left out throws (lib/constructs/trim-re2js.js says why each is unreachable). */
export function re2jsUnreached(method: string): Error {
  return leftOut(`re2js's ${method}`);
}
