// The OTLP/HTTP request body of POST /v1/traces: JSON or protobuf, gzip-compressed or not, limits after decompression.
import { gunzipSync } from 'node:zlib';
import { AppError, InvalidJsonError } from '../../errors';
import { isOtlpExport } from './read-json';
import { decodeExportRequest } from './read-proto';
import { storableDoubles } from './util';

export type BodyEncoding = 'json' | 'protobuf';

const PROTOBUF_TYPES = new Set(['application/x-protobuf', 'application/protobuf']);

/** The encoding a Content-Type names: JSON (`application/json`, `+json`), protobuf, or null for anything else. */
export function bodyEncoding(contentType: string | undefined): BodyEncoding | null {
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
  if (type === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(type)) return 'json';
  return PROTOBUF_TYPES.has(type) ? 'protobuf' : null;
}

function unsupported(what: string): AppError {
  return new AppError(
    415,
    'unsupported_media_type',
    `${what} POST /v1/traces takes Content-Type application/json or application/x-protobuf, with Content-Encoding gzip or none.`,
  );
}

function invalid(encoding: BodyEncoding, message: string): AppError {
  return encoding === 'json' ? new InvalidJsonError(message) : new AppError(400, 'invalid_protobuf', message);
}

/**
 * Decodes the body: gunzips it when `Content-Encoding: gzip` (never past `limit` bytes of output, so a gzip bomb is a
 * 413 and not an exhausted memory), then parses JSON or decodes an OTLP ExportTraceServiceRequest, which comes out in
 * the OTLP/JSON shape (doubles beyond the store's range as text in both). An empty protobuf body is an empty export;
 * an empty JSON body is refused like any missing body.
 */
export function readTraceBody(raw: Buffer, headers: Record<string, string>, limit: number): unknown {
  const encoding = bodyEncoding(headers['content-type']);
  // As on every other route: no body at all is a 400 before the content type is looked at (protobuf aside).
  if (raw.length === 0 && encoding !== 'protobuf') throw new InvalidJsonError('A JSON object body is required.');
  if (!encoding)
    throw unsupported(headers['content-type'] ? `Content-Type ${headers['content-type'].slice(0, 100)} is not supported:` : 'No Content-Type:');
  const bytes = decompress(raw, headers['content-encoding'], limit, encoding);
  if (encoding === 'protobuf') {
    try {
      return decodeExportRequest(bytes);
    } catch {
      throw invalid('protobuf', 'The body is not an OTLP ExportTraceServiceRequest protobuf message.');
    }
  }
  if (bytes.length === 0) throw new InvalidJsonError('A JSON object body is required.');
  let body: unknown;
  try {
    body = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new InvalidJsonError();
  }
  // An export's doubles are read as the protobuf reader reads them, so no encoding refuses what the other stores.
  if (isOtlpExport(body)) storableDoubles(body);
  return body;
}

function decompress(raw: Buffer, contentEncoding: string | undefined, limit: number, encoding: BodyEncoding): Buffer {
  const codings = (contentEncoding ?? '')
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c && c !== 'identity');
  if (codings.length === 0) return raw;
  if (codings.length > 1 || (codings[0] !== 'gzip' && codings[0] !== 'x-gzip'))
    throw unsupported(`Content-Encoding ${contentEncoding?.slice(0, 100)} is not supported:`);
  // API Gateway decompresses request bodies itself and may pass the header on: bytes without the gzip magic number
  // are the body as it was before compression.
  if (raw.length < 2 || raw[0] !== 0x1f || raw[1] !== 0x8b) return raw;
  try {
    return gunzipSync(raw, { maxOutputLength: limit });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' || err instanceof RangeError) {
      throw new AppError(413, 'payload_too_large', `The request body exceeds the limit of ${limit} bytes after decompression.`);
    }
    throw invalid(encoding, 'The body is not valid gzip (Content-Encoding: gzip).');
  }
}
