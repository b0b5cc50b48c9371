import type { FastifySerializerCompiler } from 'fastify/types/schema.js';
import fastJson from 'fast-json-stringify';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { parse, type $ZodType } from 'zod/v4/core';

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
    const schema = route.schema as unknown;
    // Content-typed responses (event streams) are written by hand: only plain zod schemas here.
    if (!(schema instanceof z.ZodType)) return zodSerialize;
    return withZodCheck(fastSerializer(schema) ?? zodSerialize, zodSerialize, opts.checkWithZod);
  };
}

/** fast-json-stringify's serializer of `schema`'s output, or undefined for a schema JSON Schema cannot express. */
function fastSerializer(schema: $ZodType): Serializer | undefined {
  try {
    return fastJson(z.toJSONSchema(schema, { io: 'output', unrepresentable: 'throw' }) as Parameters<typeof fastJson>[0]);
  } catch {
    return undefined;
  }
}

const withZodCheck = (fast: Serializer, zodSerialize: Serializer, check: boolean): Serializer =>
  check && fast !== zodSerialize
    ? (data) => {
        zodSerialize(data);
        return fast(data);
      }
    : fast;

const eventSerializers = new WeakMap<$ZodType, { checked: Serializer; unchecked: Serializer }>();

/**
 * The serializer of one Server-Sent Event's data, by the same rule as replies': fast-json-stringify
 * from the event's schema (built once per schema), and outside production checked against the zod
 * schema too, so an event that drifts from its contract fails in development and in the tests. A
 * chat answer sends dozens of `delta` events: walking the zod schema for each was a measurable
 * share of a message's time in the chat bench.
 */
export function eventSerializer(schema: $ZodType, checkWithZod: boolean): Serializer {
  let pair = eventSerializers.get(schema);
  if (!pair) {
    const zodSerialize: Serializer = (data) => JSON.stringify(parse(schema, data));
    const fast = fastSerializer(schema) ?? zodSerialize;
    pair = { checked: withZodCheck(fast, zodSerialize, true), unchecked: fast };
    eventSerializers.set(schema, pair);
  }
  return checkWithZod ? pair.checked : pair.unchecked;
}
