// zod/mini request schemas seen as classic zod schemas, because @asteasolutions/zod-to-openapi reads classic schemas
// only: the same definitions under the classic constructors, their OpenAPI metadata applied with `.openapi()`.
import type { ZodType } from 'zod';
import type * as core from 'zod/v4/core';
import { z } from './zod';
import { openApiMeta } from './meta';

type Classic<T extends core.$ZodType> = ZodType<core.output<T>, core.input<T>>;
type Constructor = new (def: core.$ZodTypeDef) => ZodType;

/** Definition keys that hold one schema, a list of them (union options, tuple items) or a shape of them. */
const ONE = ['element', 'catchall', 'innerType', 'in', 'out', 'keyType', 'valueType', 'left', 'right', 'rest'];
const MANY = ['options', 'items'];

const seen = new WeakMap<core.$ZodType, ZodType>();

/**
 * The classic schema with the definition of `schema` (a zod/mini schema, or a classic one, returned as it is): its
 * nested schemas converted too, everything else (checks, defaults, transforms, refinements) shared, so it validates
 * and documents exactly alike. A schema converts once; a shared part stays one instance.
 */
export function classicOf<T extends core.$ZodType>(schema: T): Classic<T> {
  if (schema instanceof z.ZodType) return schema as unknown as Classic<T>;
  let out = seen.get(schema);
  if (!out) {
    const name = schema._zod.constr.name.replace(/^ZodMini/, 'Zod');
    const Class = (z as unknown as Record<string, Constructor | undefined>)[name];
    if (typeof Class !== 'function') throw new Error(`no classic zod counterpart of ${schema._zod.constr.name}`);
    out = new Class(classicDef(schema._zod.def));
    const meta = openApiMeta.get(schema);
    if (meta) {
      const { name: component, override, ...rest } = meta;
      const shown = { ...rest, ...override };
      out = component ? out.openapi(component, shown) : out.openapi(shown);
    }
    seen.set(schema, out);
  }
  return out as Classic<T>;
}

/** A copy of a definition with its nested schemas converted; getters (a default's value) are kept as getters. */
function classicDef(def: core.$ZodTypeDef): core.$ZodTypeDef {
  const source = def as unknown as Record<string, unknown>;
  const copy = Object.defineProperties({}, Object.getOwnPropertyDescriptors(def)) as Record<string, unknown>;
  const set = (key: string, value: unknown) => Object.defineProperty(copy, key, { value, enumerable: true, writable: true, configurable: true });
  for (const key of ONE) if (source[key]) set(key, classicOf(source[key] as core.$ZodType));
  for (const key of MANY)
    if (Array.isArray(source[key]))
      set(
        key,
        (source[key] as core.$ZodType[]).map((s) => classicOf(s)),
      );
  if (source.type === 'object') {
    const shape = source.shape as Record<string, core.$ZodType>;
    set('shape', Object.fromEntries(Object.entries(shape).map(([k, s]) => [k, classicOf(s)])));
  }
  return copy as unknown as core.$ZodTypeDef;
}
