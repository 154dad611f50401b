import fastJson from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';

type Route = Parameters<typeof zodSerializerCompiler>[0];
type Serialize = (data: unknown) => string;

/**
 * The responses' serializer (issue 22): each route's zod response schema is turned into JSON Schema
 * once and compiled with fast-json-stringify, instead of running zod over every answer (safeEncode,
 * then JSON.stringify: the largest cost of an answer after its queries). Like zod's objects, the
 * compiled serializer writes only the schema's keys. A schema JSON Schema cannot express (a
 * transform, a codec) keeps zod's serializer.
 *
 * fast-json-stringify trusts its input (a string where a number is due is coerced, not refused):
 * with `check` (the tests), every answer goes through both and a difference is an error, so the
 * whole api suite proves the compiled serializers write what zod would.
 */
export function createSerializerCompiler({ check }: { check: boolean }) {
  return ((route: Route) => {
    const viaZod = zodSerializerCompiler(route) as Serialize;
    const compiled = compileSchema(route.schema);
    if (!compiled) return viaZod;
    if (!check) return compiled;
    return (data: unknown) => {
      const expected = viaZod(data);
      const actual = compiled(data);
      if (actual !== expected && !isDeepStrictEqual(JSON.parse(actual), JSON.parse(expected))) {
        throw new Error(
          `${route.method} ${route.url}: the compiled serializer wrote ${actual.slice(0, 500)} where zod wrote ${expected.slice(0, 500)}`,
        );
      }
      return actual;
    };
  }) as FastifySerializerCompiler<unknown>;
}

function compileSchema(schema: unknown): Serialize | null {
  const zodSchema =
    schema instanceof z.ZodType
      ? schema
      : schema && typeof schema === 'object' && 'properties' in schema && schema.properties instanceof z.ZodType
        ? schema.properties
        : null;
  if (!zodSchema) return null;
  try {
    // What the OpenAPI document shows as the answer (io: output); throws on what it cannot express.
    const jsonSchema = z.toJSONSchema(zodSchema, { io: 'output', target: 'draft-7', unrepresentable: 'throw' });
    return fastJson(jsonSchema as Parameters<typeof fastJson>[0]) as Serialize;
  } catch {
    return null;
  }
}
