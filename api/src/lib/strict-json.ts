import { z } from 'zod';

/**
 * The first key that appears twice in one object of this JSON text, or null. JSON.parse keeps the
 * last of two equal keys, so `{"password": "a", "password": "b"}` would be read as a different
 * body than a checker (a WAF, a log, another parser) that keeps the first. Run on text that
 * JSON.parse accepted: a single linear pass, no allocation but the keys of the object being read.
 */
export function duplicateKey(text: string): string | null {
  // One entry per open container: the keys seen so far in an object, null for an array.
  const stack: (Set<string> | null)[] = [];
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x7b /* { */) stack.push(new Set());
    else if (c === 0x5b /* [ */) stack.push(null);
    else if (c === 0x7d /* } */ || c === 0x5d /* ] */) stack.pop();
    else if (c === 0x22 /* " */) {
      const start = i;
      let escaped = false;
      for (i++; i < n; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c /* \ */) {
          escaped = true;
          i++;
        } else if (d === 0x22) break;
      }
      const keys = stack[stack.length - 1];
      if (!keys) continue; // a string inside an array, or the whole body
      let j = i + 1;
      while (j < n && (text[j] === ' ' || text[j] === '\t' || text[j] === '\n' || text[j] === '\r')) j++;
      if (text[j] !== ':') continue; // a value, not a key
      const raw = text.slice(start, i + 1);
      // "a" and "\u0061" are one key: decode escapes (rare in keys) before comparing.
      const key = escaped ? (JSON.parse(raw) as string) : raw.slice(1, -1);
      if (keys.has(key)) return key;
      keys.add(key);
    }
  }
  return null;
}

const strictCache = new WeakMap<z.ZodType, z.ZodType>();
// Schemas being made strict: a schema met again inside itself (a getter-defined recursive shape)
// is left as it is there rather than followed for ever.
const inProgress = new WeakSet<z.ZodType>();

// Wrappers whose def names one inner schema that receives the same value. Not `catch`: under it an
// unknown field would make the inner schema fail and be replaced by the fallback, not refused.
const WRAPPED = new Set(['optional', 'nullable', 'default', 'prefault', 'readonly', 'nonoptional']);

/**
 * The body schema with unknown fields refused at every depth: an object that would drop them in
 * silence (zod's default) becomes strict, and so do the objects inside it — its fields, array
 * elements, record values, tuple items, union branches, the input side of a pipe (a transform)
 * and optional/nullable/default wrappers. Objects that say what to do with unknown fields
 * (strict, passthrough, catchall) keep that, their fields are still made strict. Not made strict:
 * the sides of an intersection (each side would refuse the other's fields), what a transform or
 * z.preprocess hands on, lazy and custom schemas. Unchanged parts keep their identity.
 */
export function strictBody<T>(schema: T): T {
  if (!(schema instanceof z.ZodType)) return schema;
  const cached = strictCache.get(schema);
  if (cached) return cached as T;
  if (inProgress.has(schema)) return schema;
  inProgress.add(schema);
  try {
    const strict = stricter(schema);
    // A clone is a new schema for zod's registry: keep its description (the OpenAPI document
    // shows the strict bodies), not its id (two schemas may not share one).
    const meta = z.globalRegistry.get(schema);
    if (strict !== schema && meta) {
      z.globalRegistry.add(strict, Object.fromEntries(Object.entries(meta).filter(([k]) => k !== 'id')));
    }
    strictCache.set(schema, strict);
    return strict as T;
  } finally {
    inProgress.delete(schema);
  }
}

function stricter(schema: z.ZodType): z.ZodType {
  const def = schema._zod.def as unknown as Record<string, unknown> & { type: string };
  const one = (key: string): z.ZodType => {
    const inner = def[key] as z.ZodType;
    const next = strictBody(inner);
    return next === inner ? schema : schema.clone({ ...def, [key]: next } as typeof schema._zod.def);
  };
  const many = (key: string): z.ZodType => {
    const inner = def[key] as z.ZodType[];
    const next = inner.map((o) => strictBody(o));
    return next.every((o, i) => o === inner[i])
      ? schema
      : schema.clone({ ...def, [key]: next } as typeof schema._zod.def);
  };
  switch (def.type) {
    case 'object': {
      const shape = (schema as z.ZodObject)._zod.def.shape;
      const next: Record<string, z.ZodType> = {};
      let changed = false;
      for (const [key, field] of Object.entries(shape)) {
        next[key] = strictBody(field as z.ZodType);
        changed ||= next[key] !== field;
      }
      const catchall = def.catchall === undefined ? z.never() : def.catchall;
      if (!changed && catchall === def.catchall) return schema;
      // clone keeps the object's refinements (extend would refuse them).
      return schema.clone({ ...def, shape: next, catchall } as typeof schema._zod.def);
    }
    case 'array':
      return one('element');
    case 'record':
      return one('valueType');
    case 'union': // a discriminated union too: clone rebuilds its discriminator map
      return many('options');
    case 'tuple': {
      const items = def.items as z.ZodType[];
      const rest = def.rest as z.ZodType | null;
      const nextItems = items.map((o) => strictBody(o));
      const nextRest = rest && strictBody(rest);
      if (nextRest === rest && nextItems.every((o, i) => o === items[i])) return schema;
      return schema.clone({ ...def, items: nextItems, rest: nextRest } as typeof schema._zod.def);
    }
    case 'pipe':
      // The value is checked by `in` first; `out` receives what `in` produced (a transform's output).
      return one('in');
    default:
      return WRAPPED.has(def.type) ? one('innerType') : schema;
  }
}
