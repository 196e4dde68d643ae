import { compileErrors, validate } from '@readme/openapi-parser';
import { DEFAULT_LIMITS, EVENT_BODY_SCHEMAS, EVENT_TYPES, eventBody } from '@shortener/core';
import type { OutboxEvent, VisitSummary } from '@shortener/core';
import { aLink } from '@shortener/testkit';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../src/route-tables.js';
import { serviceConfig } from './config.js';
import { DOCUMENTED_PATHS, METHODS, domainSchemas } from './openapi-helpers.js';

const config = serviceConfig({
  shortDomains: [
    { origin: 'https://s.example', host: 's.example' },
    { origin: 'http://localhost:3000', host: 'localhost:3000' },
  ],
});
const hosts = ['s.example', 'localhost:3000'];

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const doc = buildOpenApiDocument(config, { metrics: true }) as Json;
const schemas = doc.components.schemas as Json;

/** A nullish property as its non-null type: nullable fields carry a type list (`[T, 'null']`). */
const branch = (property: Json): Json =>
  Array.isArray(property.type)
    ? {
        ...property,
        type: property.type.find((t: string) => t !== 'null'),
        ...(property.enum ? { enum: property.enum.filter((v: unknown) => v !== null) } : {}),
      }
    : property;

describe('buildOpenApiDocument', () => {
  it('produces a document that validates against the OpenAPI 3.1 schema', async () => {
    const result = await validate(structuredClone(doc) as never);
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
    expect(result.warnings).toEqual([]);
  });

  it('is OpenAPI 3.1.0, version 1.0.0, served from the base URL', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info).toMatchObject({ title: 'shortener', version: '1.0.0' });
    expect(doc.servers).toEqual([{ url: 'https://short.example' }]);
  });

  it('serves what lives on the short domains from them: links, their QR codes and robots.txt', () => {
    const shortDomains = config.shortDomains.map((d) => ({ url: d.origin }));
    for (const path of ['/{slug}', '/{slug}+', '/{slug}.json', '/{slug}.png', '/{slug}.svg', '/robots.txt'])
      expect((doc.paths[path] as Json).servers, path).toEqual(shortDomains);
  });

  it('describes every endpoint with exactly its methods', () => {
    expect(Object.keys(doc.paths).sort()).toEqual(Object.keys(DOCUMENTED_PATHS).sort());
    for (const [path, methods] of Object.entries(DOCUMENTED_PATHS)) {
      const item = doc.paths[path] as Json;
      expect(
        Object.keys(item)
          .filter((k) => METHODS.includes(k))
          .sort(),
        path,
      ).toEqual(methods);
    }
  });

  it('lists /metrics only where this server serves it; elsewhere it is a slug', () => {
    const plain = buildOpenApiDocument(config) as Json;
    expect(Object.keys(plain.paths)).not.toContain('/metrics');
    expect(Object.keys(plain.paths)).toContain('/{slug}');
  });

  it('gives every operation an id, a summary and a description', () => {
    for (const item of Object.values(doc.paths as Json)) {
      for (const method of METHODS.filter((m) => m in item)) {
        expect(item[method]).toMatchObject({
          operationId: expect.any(String),
          summary: expect.any(String),
          description: expect.any(String),
        });
      }
    }
  });

  it('puts the spec limits on the CreateLink request schema', () => {
    const create = schemas.CreateLink as Json;
    const props = create.properties as Json;
    expect(create.additionalProperties).toBe(false);
    expect(create.required).toEqual(['url']);
    expect(branch(props.title)).toMatchObject({ type: 'string', maxLength: 200 });
    expect(branch(props.password)).toMatchObject({ type: 'string', minLength: 4, maxLength: 64 });
    expect(branch(props.expires_in_days)).toMatchObject({ type: 'number', minimum: 0.01, maximum: 3650 });
    expect(branch(props.max_clicks)).toMatchObject({ type: 'integer', minimum: 1 });
    expect(props.max_clicks.type).toEqual(['integer', 'null']);
    expect(props.url).toMatchObject({ type: 'string', maxLength: 4096 });
    expect(branch(props.alias).pattern).toBe(String.raw`^\s*[A-Za-z0-9_-]{2,40}\s*$`);
  });

  it('states the bulk and claim limits as maxItems', () => {
    const urls = schemas.BulkRequest.properties.urls.anyOf as Json[];
    expect(urls.find((b) => b.type === 'array')?.maxItems).toBe(DEFAULT_LIMITS.bulkWithKey);
    expect(schemas.ClaimRequest.properties.edit_tokens.maxItems).toBe(DEFAULT_LIMITS.claimMax);
  });

  it('lets a failed bulk item carry the error object’s optional field', () => {
    const item = schemas.BulkResponse.properties.results.items.anyOf[1] as Json;
    expect(item.properties.error).toEqual({ $ref: '#/components/schemas/ErrorDetail' });
    expect(Object.keys(schemas.ErrorDetail.properties)).toEqual(['code', 'message', 'field']);
    expect(schemas.ErrorDetail.required).toEqual(['code', 'message']);
  });

  it('says security: [] on every public operation and gives every parameter and body an example', () => {
    for (const [path, item] of Object.entries(doc.paths as Json)) {
      for (const method of METHODS.filter((m) => m in item)) {
        const op = item[method] as Json;
        expect(Array.isArray(op.security), `${method} ${path}`).toBe(true);
        for (const parameter of [...(item.parameters ?? []), ...(op.parameters ?? [])]) {
          const resolved = parameter.$ref
            ? doc.components.parameters[parameter.$ref.split('/').pop()]
            : parameter;
          expect(resolved.example, `${method} ${path} ${resolved.name}`).toBeDefined();
        }
        for (const media of Object.values((op.requestBody?.content ?? {}) as Json))
          expect(media.example, `${method} ${path}`).toBeDefined();
      }
    }
    expect(doc.paths['/healthz'].get.security).toEqual([]);
    expect(doc.paths['/api/v1/links'].post.security).toEqual([{}, { apiKey: [] }, { session: [] }]);
  });

  it('declares the password form body of POST /{slug}', () => {
    const content = doc.paths['/{slug}'].post.requestBody.content as Json;
    expect(Object.keys(content)).toEqual(['application/x-www-form-urlencoded', 'application/json']);
    expect(content['application/x-www-form-urlencoded'].schema.properties.password.type).toBe('string');
  });

  it('answers every POST /mcp status with a JSON-RPC body', () => {
    const responses = doc.paths['/mcp'].post.responses as Json;
    expect(Object.keys(responses).sort()).toEqual([
      '200',
      '202',
      '400',
      '401',
      '403',
      '404',
      '406',
      '413',
      '415',
      '500',
    ]);
    for (const status of ['401', '403', '404', '406', '413', '415'])
      expect(responses[status].content['application/json'].schema).toEqual({
        $ref: '#/components/schemas/JsonRpcError',
      });
  });

  it('names a license and a contact', () => {
    expect(doc.info.license).toEqual({ name: 'MIT', identifier: 'MIT' });
    expect(doc.info.contact.url).toBe('https://short.example');
  });

  it('lists every field of the Link response object', () => {
    const fields = ['id', 'domain', 'slug', 'short_url', 'url', 'title', 'status', 'clicks', 'has_password'];
    fields.push('public_stats', 'expires_at', 'max_clicks', 'created_at', 'updated_at', 'last_click_at');
    fields.push('preview_url', 'qr_svg_url', 'qr_png_url', 'stats_url', 'edit_token');
    fields.push('tags', 'rules', 'forward_query', 'redirect_status', 'crawlable', 'expired_url', 'preview');
    fields.push('split', 'starts_at', 'created_by', 'updated_by', 'health');
    expect(Object.keys(schemas.Link.properties).sort()).toEqual([...fields].sort());
    expect(schemas.Link.properties.rules.items).toEqual({ $ref: '#/components/schemas/RedirectRule' });
    expect(schemas.Link.required).not.toContain('edit_token');
  });

  it('references the named schemas from the operations', () => {
    const post = doc.paths['/api/v1/links'].post as Json;
    expect(post.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/CreateLink',
    });
    expect(post.responses[201].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/Link',
    });
    expect(schemas.LinkList.properties.links.items).toEqual({ $ref: '#/components/schemas/Link' });
  });

  it('answers the CSV of statistics and of the links list as a media type of its own, beside JSON of the schema alone', () => {
    // issue 60: JSON callers of a generated client must see the schema, not `string | Stats`; a client that
    // unions every media type of a 200 (openapi-fetch's default) narrows it with `createClient<paths,
    // 'application/json'>` (docs/api.md)
    const answers = {
      '/api/v1/links/{id}/stats': 'Stats',
      '/api/v1/tags/{tag}/stats': 'StatsAcross',
      '/api/v1/stats': 'StatsAcross',
      '/api/v1/links': 'LinkList',
    };
    for (const [path, schema] of Object.entries(answers)) {
      expect(doc.paths[path].get.responses[200].content, path).toStrictEqual({
        'application/json': { schema: { $ref: `#/components/schemas/${schema}` } },
        'text/csv': { schema: { type: 'string' } },
      });
    }
    for (const schema of new Set(Object.values(answers)))
      expect([schemas[schema].oneOf, schemas[schema].anyOf], schema).toEqual([undefined, undefined]);
  });

  it('gives the configured hosts as examples of every domain field (own domains are hosts too)', () => {
    // `/tls/allowed?domain=` takes any host (Caddy asks about accounts' own domains): no examples there
    const { '/tls/allowed': _tls, ...paths } = doc.paths;
    const found = domainSchemas({ ...doc, paths });
    expect(found.length).toBeGreaterThanOrEqual(6);
    // (a query parameter's schema has none: the parameter's `example` is the first host)
    for (const domain of found) expect(branch(domain).enum).toBeUndefined();
    const withExamples = found.filter((domain) => domain.examples !== undefined);
    expect(withExamples.length).toBeGreaterThanOrEqual(5);
    for (const domain of withExamples) expect(domain.examples).toEqual(hosts);
  });

  it('answers rate limits with 429, Retry-After and RateLimit headers', () => {
    const limited = doc.components.responses.RateLimited as Json;
    expect(Object.keys(limited.headers)).toEqual([
      'Retry-After',
      'RateLimit-Limit',
      'RateLimit-Remaining',
      'RateLimit-Reset',
    ]);
    for (const [path, method] of [
      ['/api/v1/links', 'post'],
      ['/api/v1/bulk', 'post'],
      ['/api/shorten', 'get'],
    ]) {
      expect(doc.paths[path!][method!].responses[429]).toEqual({
        $ref: '#/components/responses/RateLimited',
      });
    }
  });

  it('declares the API key, edit token and session security schemes', () => {
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.components.securitySchemes.editToken).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'X-Edit-Token',
    });
    expect(doc.components.securitySchemes.session).toMatchObject({
      type: 'apiKey',
      in: 'cookie',
      name: '__Host-shortener_session',
    });
    expect(doc.paths['/api/v1/links/{id}'].get.security).toEqual([
      { apiKey: [] },
      { editToken: [] },
      { session: [] },
    ]);
    expect(doc.paths['/api/v1/links'].get.security).toEqual([{ apiKey: [] }, { session: [] }]);
  });
});

describe('the webhooks of /openapi.json (decisions §16)', () => {
  it('documents every event and ping, signed as Standard Webhooks, with the body schema', () => {
    expect(Object.keys(doc.webhooks)).toStrictEqual([...EVENT_TYPES, 'ping']);
    for (const [type, item] of Object.entries(doc.webhooks as Json)) {
      const post = item.post as Json;
      expect(post.security).toStrictEqual([{ webhookSignature: [] }]);
      expect(post.parameters.map((p: Json) => p.name)).toStrictEqual(['webhook-id', 'webhook-timestamp']);
      const id = post.requestBody.content['application/json'].schema.$ref.split('/').pop();
      expect(schemas[id].properties.type.const).toBe(type);
    }
    expect(schemas.LinkCreatedEvent.properties.data.$ref).toBe('#/components/schemas/Link');
    expect(doc.components.securitySchemes.webhookSignature).toMatchObject({ in: 'header' });
  });

  it('describes the bodies the dispatcher really sends', () => {
    const link = aLink();
    const at = Date.UTC(2026, 10, 27);
    const visits = { ...aVisitSummary(link.id), domain: 'sho.rt', slug: link.slug };
    const bodies: [string, object][] = [
      ['link.created', { id: 'e1', type: 'link.created', accountId: null, at, link }],
      ['link.deleted', { id: 'e2', type: 'link.deleted', accountId: null, at, link }],
      ['link.visited', { id: 'e3', type: 'link.visited', accountId: null, at, visits }],
      ['ping', { id: 'e4', type: 'ping', accountId: null, at }],
    ];
    for (const [type, event] of bodies) {
      const body = JSON.parse(eventBody(event as OutboxEvent, config, at)) as unknown;
      const parsed = EVENT_BODY_SCHEMAS[type as keyof typeof EVENT_BODY_SCHEMAS].safeParse(body);
      expect([type, parsed.success ? 'ok' : parsed.error.message]).toStrictEqual([type, 'ok']);
    }
  });
});

describe('the order of the paths', () => {
  it('lists literal paths first and /{slug} last, so tools matching in order (Prism) pick the right one', () => {
    const paths = Object.keys(doc.paths);
    const index = (path: string) => paths.indexOf(path);
    expect(paths.at(-1)).toBe('/{slug}');
    for (const path of [
      '/{slug}.json',
      '/{slug}+',
      '/{slug}.png',
      '/{slug}.svg',
      '/healthz',
      '/mcp',
      '/admin',
    ])
      expect([path, index(path) < index('/{slug}')]).toStrictEqual([path, true]);
    const templated = paths.findIndex((path) => path.includes('{'));
    expect(paths.slice(templated).every((path) => path.includes('{'))).toBe(true);
  });
});

function aVisitSummary(linkId: string): VisitSummary {
  const one = { unknown: 1 };
  return {
    link_id: linkId,
    visits: 2,
    humans: 1,
    bots: 1,
    unique: 1,
    countries: { AT: 1, unknown: 1 },
    devices: one,
    browsers: one,
    referrers: { direct: 2 },
    from: '2026-11-26',
    to: '2026-11-27',
  };
}
