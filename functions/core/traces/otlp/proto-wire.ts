// The protobuf wire format, read as protobufjs 7 reads a Node Buffer (its Reader and BufferReader, ported step for step,
// quirks included, so a body decodes, or fails to, exactly as it did through protobufjs: test/unit/core/traces/otlp/
// proto-wire.test.ts compares the two on generated and damaged messages), and the few writes an export response needs.

/** Nesting a message may reach (protobufjs's recursion limit, protoc's default). */
const RECURSION_LIMIT = 100;

const outOfRange = (r: WireReader, length?: number) => new RangeError(`index out of range: ${r.pos} + ${length ?? 1} > ${r.len}`);

/** A cursor over one Buffer; `len` is narrowed to the end of the message being read. */
export class WireReader {
  pos = 0;
  len: number;

  constructor(readonly buf: Buffer) {
    this.len = buf.length;
  }

  private varint32NearEnd(): number {
    let value = 0;
    for (let i = 0; i < 4; ++i) {
      if (this.pos >= this.len) throw outOfRange(this);
      const b = this.buf[this.pos++];
      value = (value | ((b & 127) << (i * 7))) >>> 0;
      if (b < 128) return value;
    }
    throw outOfRange(this);
  }

  uint32(): number {
    const buf = this.buf;
    if (this.len - this.pos < 5) {
      if (this.pos >= this.len) throw outOfRange(this);
      if (buf[this.pos] >= 128) return this.varint32NearEnd();
    }
    let value = (buf[this.pos] & 127) >>> 0;
    if (buf[this.pos++] < 128) return value;
    value = (value | ((buf[this.pos] & 127) << 7)) >>> 0;
    if (buf[this.pos++] < 128) return value;
    value = (value | ((buf[this.pos] & 127) << 14)) >>> 0;
    if (buf[this.pos++] < 128) return value;
    value = (value | ((buf[this.pos] & 127) << 21)) >>> 0;
    if (buf[this.pos++] < 128) return value;
    value = (value | ((buf[this.pos] & 15) << 28)) >>> 0;
    if (buf[this.pos++] < 128) return value;
    if ((this.pos += 5) > this.len) {
      this.pos = this.len;
      throw outOfRange(this, 10);
    }
    return value;
  }

  int32(): number {
    return this.uint32() | 0;
  }

  bool(): boolean {
    return this.uint32() !== 0;
  }

  /** A 64-bit varint as its low and high 32 bits. */
  private longVarint(): [number, number] {
    const buf = this.buf;
    let lo = 0;
    let hi = 0;
    let i = 0;
    if (this.len - this.pos > 4) {
      for (; i < 4; ++i) {
        lo = (lo | ((buf[this.pos] & 127) << (i * 7))) >>> 0;
        if (buf[this.pos++] < 128) return [lo, hi];
      }
      lo = (lo | ((buf[this.pos] & 127) << 28)) >>> 0;
      hi = (hi | ((buf[this.pos] & 127) >> 4)) >>> 0;
      if (buf[this.pos++] < 128) return [lo, hi];
      i = 0;
    } else {
      for (; i < 3; ++i) {
        if (this.pos >= this.len) throw outOfRange(this);
        lo = (lo | ((buf[this.pos] & 127) << (i * 7))) >>> 0;
        if (buf[this.pos++] < 128) return [lo, hi];
      }
      lo = (lo | ((buf[this.pos++] & 127) << (i * 7))) >>> 0;
      return [lo, hi];
    }
    const nearEnd = this.len - this.pos <= 4;
    for (; i < 5; ++i) {
      if (nearEnd && this.pos >= this.len) throw outOfRange(this);
      hi = (hi | ((buf[this.pos] & 127) << (i * 7 + 3))) >>> 0;
      if (buf[this.pos++] < 128) return [lo, hi];
    }
    throw new Error('invalid varint encoding');
  }

  /** int64 as its decimal text (what String() of protobufjs's Long gives). */
  int64(): string {
    const [lo, hi] = this.longVarint();
    return BigInt.asIntN(64, (BigInt(hi) << 32n) | BigInt(lo)).toString();
  }

  private fixed32At(end: number): number {
    return (this.buf[end - 4] | (this.buf[end - 3] << 8) | (this.buf[end - 2] << 16) | (this.buf[end - 1] << 24)) >>> 0;
  }

  fixed32(): number {
    if (this.pos + 4 > this.len) throw outOfRange(this, 4);
    return this.fixed32At((this.pos += 4));
  }

  /** fixed64 (unsigned) as its decimal text. */
  fixed64(): string {
    if (this.pos + 8 > this.len) throw outOfRange(this, 8);
    const lo = this.fixed32At((this.pos += 4));
    const hi = this.fixed32At((this.pos += 4));
    return ((BigInt(hi) << 32n) | BigInt(lo)).toString();
  }

  double(): number {
    if (this.pos + 8 > this.len) throw outOfRange(this, 4);
    const value = this.buf.readDoubleLE(this.pos);
    this.pos += 8;
    return value;
  }

  bytes(): Buffer {
    const length = this.uint32();
    const start = this.pos;
    const end = this.pos + length;
    if (end > this.len) throw outOfRange(this, length);
    this.pos += length;
    return start === end ? Buffer.alloc(0) : this.buf.subarray(start, end);
  }

  /** A string, cut at the end of the enclosing message when its length runs past it (as BufferReader does). */
  string(): string {
    const len = this.uint32();
    const start = this.pos;
    const end = (this.pos = Math.min(this.pos + len, this.len));
    const native = (this.buf as Buffer & { utf8Slice?: (start: number, end: number) => string }).utf8Slice;
    return native ? native.call(this.buf, start, end) : this.buf.toString('utf8', start, end);
  }

  skip(length?: number): void {
    if (typeof length === 'number') {
      if (this.pos + length > this.len) throw outOfRange(this, length);
      this.pos += length;
      return;
    }
    do {
      if (this.pos >= this.len) throw outOfRange(this);
    } while (this.buf[this.pos++] & 128);
  }

  skipType(wireType: number, depth = 0): void {
    if (depth > RECURSION_LIMIT) throw new Error('maximum nesting depth exceeded');
    switch (wireType) {
      case 0:
        return this.skip();
      case 1:
        return this.skip(8);
      case 2:
        return this.skip(this.uint32());
      case 3:
        while ((wireType = this.uint32() & 7) !== 4) this.skipType(wireType, depth + 1);
        return;
      case 5:
        return this.skip(4);
      default:
        throw new Error(`invalid wire type ${wireType} at offset ${this.pos}`);
    }
  }

  /**
   * Reads one message: the whole rest of the buffer (`length` undefined, the top level) or `length` bytes, calling
   * `field` with each field number and tag (which reads the field or skips it); `depth` is its nesting.
   */
  message<T>(make: () => T, field: (m: T, id: number, tag: number, depth: number) => void, length: number | undefined, depth: number): T {
    if (depth > RECURSION_LIMIT) throw new Error('maximum nesting depth exceeded');
    let end: number;
    let outer = 0;
    if (length === undefined) end = this.len;
    else {
      end = this.pos + length;
      if (end > this.len) throw new RangeError('index out of range');
      outer = this.len;
      this.len = end;
    }
    const m = make();
    while (this.pos < end) {
      const tag = this.uint32();
      field(m, tag >>> 3, tag, depth);
    }
    if (length !== undefined) {
      if (this.pos !== end) throw new RangeError('index out of range');
      this.len = outer;
    }
    return m;
  }
}

/** Appends a varint of a non-negative integer (up to 2^53). */
export function writeVarint(out: number[], value: number): void {
  let v = value;
  while (v > 127) {
    out.push((v % 128) | 128);
    v = Math.floor(v / 128);
  }
  out.push(v);
}
