import {
  AliasCheckSchema,
  BulkInput,
  BulkResultSchema,
  ClaimInput,
  ClaimResultSchema,
  CreateLinkInput,
  ERROR_CODES,
  ErrorSchema,
  LinkListSchema,
  LinkSchema,
  PublicLinkSchema,
  StatsSchema,
  UpdateLinkInput,
} from '@shortener/core';
import { z } from 'zod';

/** A JSON object of the OpenAPI document under construction. */
export type Json = Record<string, unknown>;

const REQUEST_SCHEMAS: readonly z.ZodType[] = [CreateLinkInput, UpdateLinkInput, BulkInput, ClaimInput];
const RESPONSE_SCHEMAS: readonly z.ZodType[] = [
  LinkSchema,
  LinkListSchema,
  StatsSchema,
  AliasCheckSchema,
  PublicLinkSchema,
  BulkResultSchema,
  ClaimResultSchema,
  ErrorSchema,
];

const isJson = (value: unknown): value is Json => typeof value === 'object' && value !== null;

/** Converts named schemas (their `.meta({ id })`) to component schemas that `$ref` each other. */
function convertNamed(schemas: readonly z.ZodType[], io: 'input' | 'output'): Record<string, Json> {
  const registry = z.registry<{ id: string }>();
  for (const schema of schemas) {
    const id = schema.meta()?.id;
    if (typeof id !== 'string') throw new Error('OpenAPI component schemas need .meta({ id })');
    registry.add(schema, { id });
  }
  const uri = (id: string): string => `#/components/schemas/${id}`;
  const { schemas: converted } = z.toJSONSchema(registry, { target: 'draft-2020-12', io, uri });
  // Every referenced named schema must be in the registry, or zod parks it under `__shared`.
  if ('__shared' in converted) throw new Error('OpenAPI: a named schema is missing from the registry');
  const out: Record<string, Json> = {};
  for (const [id, schema] of Object.entries(converted)) {
    // `$schema` is implied by OpenAPI 3.1; a fragment-only `$id` is not a valid 2020-12 `$id`.
    const { $schema: _schema, $id: _id, ...rest } = schema as Json;
    out[id] = rest;
  }
  return out;
}

/** Restricts a string (or string-or-null) schema to the given values. */
function restrictTo(schema: Json, values: readonly string[]): void {
  if (Array.isArray(schema.anyOf)) {
    for (const branch of schema.anyOf) if (isJson(branch)) restrictTo(branch, values);
  } else if (schema.type === 'string') {
    schema.enum = [...values];
  } else if (Array.isArray(schema.type) && schema.type.includes('string')) {
    schema.enum = schema.type.includes('null') ? [...values, null] : [...values];
  }
}

/**
 * Finishes a generated schema in place: every `domain` property (and the alias check's
 * `alternative`) enumerates the configured hosts, since the schemas are static and the short
 * domains are configuration; zod's safe-integer bounds on `.int()` are dropped as noise.
 */
function finish(schema: Json, hosts: readonly string[]): void {
  const properties = schema.properties;
  if (isJson(properties) && hosts.length > 0) {
    for (const name of ['domain', 'alternative']) {
      const property = properties[name];
      if (isJson(property)) restrictTo(property, hosts);
    }
  }
  if (schema.minimum === Number.MIN_SAFE_INTEGER) delete schema.minimum;
  if (schema.maximum === Number.MAX_SAFE_INTEGER) delete schema.maximum;
  for (const value of Object.values(schema)) {
    if (Array.isArray(value)) for (const item of value) if (isJson(item)) finish(item, hosts);
    if (isJson(value)) finish(value, hosts);
  }
}

/** `components.schemas`: request bodies as zod parses them (input), responses as produced (output). */
export function componentSchemas(hosts: readonly string[]): Record<string, Json> {
  const schemas = { ...convertNamed(REQUEST_SCHEMAS, 'input'), ...convertNamed(RESPONSE_SCHEMAS, 'output') };
  for (const schema of Object.values(schemas)) finish(schema, hosts);
  const error = schemas.Error?.properties;
  const code =
    isJson(error) && isJson(error.error) && isJson(error.error.properties) && error.error.properties.code;
  if (isJson(code)) code.enum = [...ERROR_CODES];
  schemas.JsonRpcRequest = {
    type: 'object',
    description: 'A JSON-RPC 2.0 request or notification (MCP: initialize, tools/list, tools/call, ...).',
    properties: {
      jsonrpc: { const: '2.0' },
      id: { type: ['string', 'integer'] },
      method: { type: 'string' },
      params: { type: 'object' },
    },
    required: ['jsonrpc', 'method'],
  };
  schemas.JsonRpcResponse = {
    type: 'object',
    description: 'A JSON-RPC 2.0 response: `result` on success, `error` ({ code, message }) otherwise.',
    properties: {
      jsonrpc: { const: '2.0' },
      id: { type: ['string', 'integer', 'null'] },
      result: { type: 'object' },
      error: { type: 'object', properties: { code: { type: 'integer' }, message: { type: 'string' } } },
    },
    required: ['jsonrpc'],
  };
  return schemas;
}

/** Drops the `null` branch of a nullish field: a query string cannot carry null. */
function withoutNull(schema: Json): Json {
  if (!Array.isArray(schema.anyOf)) return schema;
  const branches = schema.anyOf.filter((b) => !(isJson(b) && b.type === 'null'));
  const { anyOf: _anyOf, ...rest } = schema;
  return branches.length === 1 && isJson(branches[0])
    ? { ...rest, ...branches[0] }
    : { ...rest, anyOf: branches };
}

/** One OpenAPI query parameter per property of an input object schema. */
export function queryParameters(schema: z.ZodType, hosts: readonly string[]): Json[] {
  let root = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input' }) as Json;
  // A schema with an id comes back as `{ $ref: '#/$defs/Id', $defs }`.
  if (typeof root.$ref === 'string' && isJson(root.$defs)) {
    const target = root.$defs[root.$ref.replace('#/$defs/', '')];
    if (isJson(target)) root = target;
  }
  finish(root, hosts);
  const properties = isJson(root.properties) ? root.properties : {};
  const required = Array.isArray(root.required) ? root.required : [];
  return Object.entries(properties).map(([name, value]) => {
    const { description, ...property } = withoutNull(isJson(value) ? value : {});
    return {
      name,
      in: 'query',
      required: required.includes(name),
      ...(typeof description === 'string' ? { description } : {}),
      schema: property,
    };
  });
}
