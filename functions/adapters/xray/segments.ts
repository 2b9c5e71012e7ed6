// X-Ray subsegments sent straight to the X-Ray daemon (UDP), under the segment Lambda opens for each invocation: the
// documents and the daemon protocol of docs/deploy-aws.md#tracing. In place of the X-Ray SDK (with the Powertools
// Tracer, ~130 KB of bundle and a process-wide async hook): a function only ever adds closed subsegments to the
// invocation's segment, which needs neither context propagation nor sampling rules (Lambda samples the invocation).
import { randomBytes } from 'node:crypto';
import { createSocket, type Socket } from 'node:dgram';

/** The invocation's trace as Lambda hands it over (`_X_AMZN_TRACE_ID`). */
export interface TraceContext {
  root: string;
  parent: string;
  sampled: boolean;
}

/** Parses `Root=1-...;Parent=...;Sampled=1[;Lineage=...]`; undefined without a root and a parent. */
export function parseTraceHeader(header: string | undefined): TraceContext | undefined {
  if (!header) return undefined;
  const fields = new Map(
    header.split(';').map((part) => {
      const eq = part.indexOf('=');
      return [part.slice(0, eq).trim(), part.slice(eq + 1).trim()] as const;
    }),
  );
  const root = fields.get('Root');
  const parent = fields.get('Parent');
  return root && parent ? { root, parent, sampled: fields.get('Sampled') === '1' } : undefined;
}

/** The current invocation's trace (Lambda sets `_X_AMZN_TRACE_ID` before each invocation). */
export const currentTrace = (): TraceContext | undefined => parseTraceHeader(process.env._X_AMZN_TRACE_ID);

/** The daemon's UDP address from `AWS_XRAY_DAEMON_ADDRESS` (`host:port`, or `udp:host:port tcp:host:port`). */
export function daemonAddress(value = process.env.AWS_XRAY_DAEMON_ADDRESS): { host: string; port: number } {
  const udp = (value ?? '').split(/\s+/).find((part) => part.startsWith('udp:')) ?? (value ?? '').split(/\s+/)[0];
  const m = /^(?:udp:)?(.+):(\d+)$/.exec(udp ?? '');
  return m ? { host: m[1], port: Number(m[2]) } : { host: '127.0.0.1', port: 2000 };
}

const HEADER = '{"format":"json","version":1}\n';
let socket: Socket | undefined;

/** Sends one document to the daemon, fire and forget (a lost trace never fails the work it describes). */
function emit(document: Record<string, unknown>): void {
  if (!socket) {
    socket = createSocket('udp4');
    socket.on('error', () => undefined);
    socket.unref();
  }
  const { host, port } = daemonAddress();
  socket.send(HEADER + JSON.stringify(document), port, host, () => undefined);
}

/** One subsegment of the invocation's segment; sent when closed. `http`, `aws` and the flags are X-Ray's fields. */
export class Subsegment {
  readonly id = randomBytes(8).toString('hex');
  private readonly startTime = Date.now() / 1000;
  private readonly fields: Record<string, unknown> = {};
  private readonly exceptions: { id: string; message: string; type: string; remote?: true }[] = [];
  private closed = false;

  constructor(
    private readonly trace: TraceContext,
    readonly name: string,
    namespace: 'aws' | 'remote',
  ) {
    this.fields.namespace = namespace;
  }

  /** The downstream trace header: this subsegment is the parent of what the called service records. */
  traceHeader(): string {
    return `Root=${this.trace.root};Parent=${this.id};Sampled=${this.trace.sampled ? 1 : 0}`;
  }

  addAttribute(name: 'http' | 'aws', value: Record<string, unknown>): void {
    this.fields[name] = value;
  }

  /** Flags by the answer's status, as X-Ray reads them: 429 throttle (and error), other 4xx error, 5xx fault. */
  flagStatus(status: number): void {
    if (status === 429) this.fields.throttle = true;
    if (status >= 400 && status < 500) this.fields.error = true;
    if (status >= 500) this.fields.fault = true;
  }

  /** Records an error; without a status it is a fault (the call did not complete), `remote` when the far end caused it. */
  addError(err: Error, remote: boolean): void {
    this.exceptions.push({ id: randomBytes(8).toString('hex'), message: err.message, type: err.name, ...(remote ? { remote: true as const } : {}) });
    if (!this.fields.error && !this.fields.fault) this.fields.fault = true;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (!this.trace.sampled) return;
    emit({
      name: this.name,
      id: this.id,
      trace_id: this.trace.root,
      parent_id: this.trace.parent,
      type: 'subsegment',
      start_time: this.startTime,
      end_time: Date.now() / 1000,
      ...this.fields,
      ...(this.exceptions.length ? { cause: { exceptions: this.exceptions } } : {}),
    });
  }
}

/** A new subsegment of the current invocation's segment; undefined outside an invocation with a trace. */
export function newSubsegment(name: string, namespace: 'aws' | 'remote'): Subsegment | undefined {
  const trace = currentTrace();
  return trace ? new Subsegment(trace, name, namespace) : undefined;
}
