// An item's size as DynamoDB bills it: each attribute's name plus its value (strings and binaries their bytes,
// numbers 1 byte per two significant digits plus 1, null and booleans 1, maps and lists 3 bytes plus 1 per element
// and each element's own size, a map's names included). Write units are this rounded up to 1 KB.
function valueBytes(v: unknown): number {
  if (v === null || v === undefined || typeof v === 'boolean') return 1;
  if (typeof v === 'string') return Buffer.byteLength(v);
  if (typeof v === 'number') {
    const digits = String(Math.abs(v)).replace('.', '').replace(/e.*$/i, '').replace(/^0+/, '');
    return Math.ceil(Math.max(1, digits.length) / 2) + 1;
  }
  if (v instanceof Uint8Array) return v.length;
  if (Array.isArray(v)) return 3 + v.reduce((s: number, x) => s + 1 + valueBytes(x), 0);
  if (v instanceof Set) return [...v].reduce((s: number, x) => s + valueBytes(x), 0);
  return 3 + Object.entries(v as Record<string, unknown>).reduce((s, [k, x]) => s + 1 + Buffer.byteLength(k) + valueBytes(x), 0);
}

export function itemBytes(item: Record<string, unknown>): number {
  return Object.entries(item).reduce((s, [k, v]) => s + Buffer.byteLength(k) + valueBytes(v), 0);
}
