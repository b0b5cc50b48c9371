import type { FastifySerializerCompiler } from 'fastify/types/schema.js';
import fastJson from 'fast-json-stringify';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

type Serializer = (data: unknown) => string;

/**
 * Replies are serialized by fast-json-stringify from the JSON Schema of the contract's zod
 * response schema (compiled once per route), not by walking the zod schema for every reply.
 * Outside production each reply is also checked against the zod schema, so a reply that
 * drifts from its contract fails in development and in the tests. A schema JSON Schema cannot
 * express falls back to zod for good.
 */
export function createSerializerCompiler(opts: { checkWithZod: boolean }): FastifySerializerCompiler<z.ZodType> {
  return (route) => {
    const zodSerialize = zodSerializerCompiler(route) as Serializer;
    let fast: Serializer;
    try {
      const schema = route.schema as unknown;
      // Content-typed responses (event streams) are written by hand: only plain zod schemas here.
      if (!(schema instanceof z.ZodType)) return zodSerialize;
      fast = fastJson(z.toJSONSchema(schema, { io: 'output', unrepresentable: 'throw' }) as Parameters<typeof fastJson>[0]);
    } catch {
      return zodSerialize;
    }
    if (!opts.checkWithZod) return fast;
    return (data) => {
      zodSerialize(data);
      return fast(data);
    };
  };
}
