import * as core from '@shortener/core';
import { EVENT_BODY_SCHEMAS, RuleInput, SplitEntryInput } from '@shortener/core';
import type { ServiceConfig } from '@shortener/core';
import { z } from 'zod';
import { jsonRpcSchemas } from './openapi-mcp.js';

/** A JSON object of the OpenAPI document under construction. */
export type Json = Record<string, unknown>;

/** `GET /healthz`'s answer. */
const HealthSchema = z
  .strictObject({
    status: z.enum(['ok', 'unavailable']),
    reason: z.string().optional().describe('With `unavailable`: what does not answer.'),
    broker: z
      .enum(['connected', 'down'])
      .optional()
      .describe('With `AMQP_URL`: whether RabbitMQ is connected (events wait while it is down).'),
    degraded: z
      .array(z.string())
      .optional()
      .describe('What does not answer but the node serves without (Redis: rate limits are its own).'),
  })
  .describe(
    '`ok` when this node can serve (its store answers and writes); otherwise `unavailable` and what fails.',
  )
  .meta({ id: 'Health' });

/**
 * The responses: every schema core exports as `…Schema` with an id (its outputs, as its inputs are
 * `…Input` and its queries `…Query`), the event bodies, and the health answer.
 */
const RESPONSE_SCHEMAS: readonly z.ZodType[] = [
  ...Object.entries(core).flatMap(([name, value]) =>
    name.endsWith('Schema') && value instanceof z.ZodType && value.meta()?.id !== undefined ? [value] : [],
  ),
  ...Object.values(EVENT_BODY_SCHEMAS),
  HealthSchema,
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

const isNullBranch = (branch: unknown): boolean =>
  isJson(branch) && branch.type === 'null' && Object.keys(branch).length === 1;

/**
 * `anyOf: [{ type: T, … }, { type: 'null' }]` (zod's nullable) becomes `{ type: [T, 'null'], … }`: the
 * plain type list that generic clients and code generators read.
 */
function collapseNullable(schema: Json): void {
  const branches = schema.anyOf;
  if (!Array.isArray(branches) || branches.length !== 2 || !branches.some(isNullBranch)) return;
  const other = branches.find((branch) => !isNullBranch(branch));
  if (!isJson(other) || typeof other.type !== 'string' || 'const' in other) return;
  delete schema.anyOf;
  Object.assign(schema, { ...other, ...schema, type: [other.type, 'null'] });
  if (Array.isArray(schema.enum)) schema.enum = [...(schema.enum as unknown[]), null];
}

/**
 * Finishes a generated schema in place: nullable fields get a type list, every `domain` property gives
 * the configured hosts as examples and the alias check's `alternative` enumerates them, since the schemas
 * are static and the short domains are configuration; zod's safe-integer bounds on `.int()` are dropped as noise.
 */
function finish(schema: Json, hosts: readonly string[]): void {
  collapseNullable(schema);
  const properties = schema.properties;
  if (isJson(properties) && hosts.length > 0) {
    // `alternative` is always a short domain; `domain` may also be an account's own (decisions §20), so
    // the short domains are its examples, not its only values
    const alternative = properties.alternative;
    if (isJson(alternative)) restrictTo(alternative, hosts);
    const domain = properties.domain;
    // `x-any-host`: a host of any kind (Caddy's question), no short domain given as an example
    if (isJson(domain) && domain['x-any-host'] === true) delete domain['x-any-host'];
    else if (isJson(domain)) domain.examples = [...hosts];
  }
  if (schema.minimum === Number.MIN_SAFE_INTEGER) delete schema.minimum;
  if (schema.maximum === Number.MAX_SAFE_INTEGER) delete schema.maximum;
  for (const value of Object.values(schema)) {
    if (Array.isArray(value)) for (const item of value) if (isJson(item)) finish(item, hosts);
    if (isJson(value)) finish(value, hosts);
  }
}

/** Sets a keyword on a property of a component schema (or on one of its branches). */
function constrain(schema: Json | undefined, property: string, keywords: Json): void {
  const target = isJson(schema?.properties) ? schema.properties[property] : undefined;
  if (!isJson(target)) return;
  const branches = Array.isArray(target.anyOf) ? target.anyOf.filter(isJson) : [target];
  for (const branch of branches) if (branch.type === 'array') Object.assign(branch, keywords);
}

/**
 * `components.schemas`: the routes' request bodies as zod parses them (input; a redirect rule and a split
 * entry besides), responses as produced (output; the health answer among them) and the JSON-RPC envelopes
 * of `/mcp`. Limits that are configuration (bulk and claim sizes) become `maxItems` here.
 */
export function componentSchemas(config: ServiceConfig, bodies: readonly z.ZodType[]): Record<string, Json> {
  const hosts = config.shortDomains.map((d) => d.host);
  const requests = [...new Set([RuleInput, SplitEntryInput, ...bodies])];
  const schemas = { ...convertNamed(requests, 'input'), ...convertNamed(RESPONSE_SCHEMAS, 'output') };
  for (const schema of Object.values(schemas)) finish(schema, hosts);
  constrain(schemas.BulkRequest, 'urls', { maxItems: config.limits.bulkWithKey });
  constrain(schemas.ClaimRequest, 'edit_tokens', { maxItems: config.limits.claimMax });
  return { ...schemas, ...jsonRpcSchemas() };
}

/** Drops the `null` type of a nullish field: a query string cannot carry null. */
function withoutNull(schema: Json): Json {
  if (Array.isArray(schema.type)) {
    const types = schema.type.filter((type) => type !== 'null');
    const values = Array.isArray(schema.enum) ? { enum: schema.enum.filter((v) => v !== null) } : {};
    return { ...schema, ...values, type: types.length === 1 ? types[0] : types };
  }
  if (!Array.isArray(schema.anyOf)) return schema;
  const branches = schema.anyOf.filter((b) => !(isJson(b) && b.type === 'null'));
  const { anyOf: _anyOf, ...rest } = schema;
  return branches.length === 1 && isJson(branches[0])
    ? { ...rest, ...branches[0] }
    : { ...rest, anyOf: branches };
}

/** An example of each query parameter, by name: linters check them against the schemas. */
const QUERY_EXAMPLES: Readonly<Record<string, unknown>> = {
  limit: 50,
  delete_links: 'true',
  cursor: 'MTcwMDAwMDAwMDAwMC4zZjJiOGMxZS02YTRkLTRmN2ItOWMyZS04ZDFhNWI2YzdlOTA',
  q: 'sale',
  tag: 'summer',
  health: 'broken',
  days: 30,
  from: '2026-01-01',
  to: '2026-01-31',
  tz: 'Europe/Vienna',
  format: 'json',
  slug: 'summer-sale',
  url: 'https://example.com/a/long/path',
  alias: 'summer-sale',
  size: 512,
  fg: '#1a1a1a',
  bg: '#ffffff',
  margin: 2,
};

/** One OpenAPI query parameter per property of an input object schema, each with an example. */
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
    const { description, examples: _examples, ...property } = withoutNull(isJson(value) ? value : {});
    const example = name === 'domain' ? hosts[0] : QUERY_EXAMPLES[name];
    if (example === undefined) throw new Error(`OpenAPI: no example for the query parameter ${name}`);
    return {
      name,
      in: 'query',
      required: required.includes(name),
      ...(typeof description === 'string' ? { description } : {}),
      schema: property,
      example,
    };
  });
}
