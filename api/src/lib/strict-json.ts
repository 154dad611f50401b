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

/**
 * The body schema with unknown fields refused: an object that would drop them in silence (zod's
 * default) becomes strict, each branch of a union too. Schemas that say what to do with unknown
 * fields (strict, passthrough, catchall) are left as they are.
 */
export function strictBody<T>(schema: T): T {
  if (!(schema instanceof z.ZodType)) return schema;
  const cached = strictCache.get(schema);
  if (cached) return cached as T;
  let strict: z.ZodType = schema;
  if (schema instanceof z.ZodObject && schema._zod.def.catchall === undefined) strict = schema.strict();
  else if (schema instanceof z.ZodUnion) {
    const options = schema.options as z.ZodType[];
    const stricter = options.map((o) => strictBody(o));
    if (stricter.some((o, i) => o !== options[i])) strict = z.union(stricter as [z.ZodType, ...z.ZodType[]]);
  }
  strictCache.set(schema, strict);
  return strict as T;
}
