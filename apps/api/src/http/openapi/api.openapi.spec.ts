import 'reflect-metadata';
import type { DynamicModule, Type } from '@nestjs/common';
import { buildOpenApiDocument, danglingRefs, discoverRoutes, OPENAPI_DOCUMENT_OPERATIONS, type OpenApiDocument } from '@longhaul/platform';
import type { Logger } from '@longhaul/telemetry';
import { AppModule } from '../../app.module';
import { loadApiConfig } from '../../app.config';
import { API_OPENAPI } from './api.openapi';

type ModuleLike = Type<unknown> | DynamicModule;

/** Every controller of the api's module tree, as Nest will register them. */
function controllersOf(root: ModuleLike, seen = new Set<unknown>()): Type<unknown>[] {
  if (!root || seen.has(root)) return [];
  seen.add(root);
  const dynamic = 'module' in root ? root : undefined;
  const type = dynamic ? dynamic.module : (root as Type<unknown>);
  const own = [...(dynamic?.controllers ?? []), ...((Reflect.getMetadata('controllers', type) as Type<unknown>[] | undefined) ?? [])];
  const imports = [...(dynamic?.imports ?? []), ...((Reflect.getMetadata('imports', type) as unknown[] | undefined) ?? [])];
  return [...own, ...imports.filter((i): i is ModuleLike => typeof i === 'function' || (typeof i === 'object' && i !== null && 'module' in i)).flatMap((i) => controllersOf(i, seen))];
}

describe("the api's OpenAPI document", () => {
  const silent = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined, child: () => silent } as unknown as Logger;
  const routes = discoverRoutes(controllersOf(AppModule.forRoot(loadApiConfig({}), silent)));
  // What OpenApiModule builds at start: the api's descriptions and the document's own.
  let document: OpenApiDocument;

  it('describes every route of the app, and nothing else (else it throws)', () => {
    document = buildOpenApiDocument(routes, { ...API_OPENAPI, operations: [...API_OPENAPI.operations, OPENAPI_DOCUMENT_OPERATIONS] });
    expect(document.openapi).toBe('3.1.0');
    expect(routes.length).toBeGreaterThanOrEqual(24);
    expect(danglingRefs(document)).toEqual([]);
  });

  it('lets exactly the public routes through without a key', () => {
    const open = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([, op]) => op.security.length === 0)
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    expect(open.sort()).toEqual(['GET /dashboard/config.json', 'GET /healthz', 'GET /metrics', 'GET /openapi.json', 'GET /readyz', 'GET /v1/files/{grant}/{path}']);
  });

  it('names the scope the key guard asks, admin on the operator routes', () => {
    const scopes = (path: string, method: 'get' | 'post' | 'delete') => document.paths[path]![method]!.security;
    expect(scopes('/v1/jobs', 'get')).toEqual([{ bearer: ['read'] }]);
    expect(scopes('/v1/jobs', 'post')).toEqual([{ bearer: ['write'] }]);
    expect(scopes('/v1/webhook-endpoints/{id}', 'delete')).toEqual([{ bearer: ['write'] }]);
    expect(scopes('/v1/queues', 'get')).toEqual([{ bearer: ['admin'] }]);
    expect(scopes('/v1/dead-letters/{id}/replay', 'post')).toEqual([{ bearer: ['admin'] }]);
    expect(scopes('/v1/dead-letters/{id}', 'delete')).toEqual([{ bearer: ['admin'] }]);
    expect(scopes('/v1/dead-letters/{id}', 'get')).toEqual([{ bearer: ['read'] }]);
    for (const [path, method] of [['/v1/dlq-messages', 'get'], ['/v1/dlq-messages/{id}', 'get'], ['/v1/dlq-messages/{id}/replay', 'post'], ['/v1/dlq-messages/{id}', 'delete']] as const) {
      expect(scopes(path, method)).toEqual([{ bearer: ['admin'] }]);
    }
    const list = document.paths['/v1/jobs']!.get!;
    expect(Object.keys(list.responses)).toEqual(['200', '400', '401', '403', '429']);
    expect(list.responses['200']!.headers).toHaveProperty('RateLimit');
    expect(list.responses['401']!.headers).toHaveProperty('WWW-Authenticate');
  });

  it('describes the raw upload, the event stream and the file answers', () => {
    const upload = document.paths['/v1/uploads']!.post!;
    expect(Object.keys(upload.requestBody!.content)).toEqual(['video/*', 'application/octet-stream']);
    expect(upload.responses['201']!.content!['application/json']!.schema).toEqual({ $ref: '#/components/schemas/UploadView' });
    const events = document.paths['/v1/jobs/{id}/events']!.get!;
    expect(Object.keys(events.responses['200']!.content!)).toEqual(['text/event-stream']);
    expect(events.responses['204']!.content).toBeUndefined();
    for (const path of ['/v1/jobs/{id}/files/{path}', '/v1/files/{grant}/{path}']) {
      expect(Object.keys(document.paths[path]!.get!.responses)).toEqual(expect.arrayContaining(['200', '206', '302', '404', '416']));
    }
  });

  it('uses the schemas the controllers validate with', () => {
    const create = document.paths['/v1/jobs']!.post!;
    expect(create.requestBody!.content['application/json']!.schema).toEqual({ $ref: '#/components/schemas/CreateJobRequest' });
    expect(document.components.schemas['CreateJobRequest']).toMatchObject({ additionalProperties: false, required: ['type', 'source'] });
    const limit = document.paths['/v1/jobs']!.get!.parameters!.find((p) => p.name === 'limit');
    expect(limit).toEqual({ name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 } });
    expect(document.paths['/v1/dead-letters']!.get!.parameters!.map((p) => p.name)).toEqual(['jobType', 'errorCode', 'fingerprint', 'limit']);
    expect(document.paths['/v1/dlq-messages']!.get!.parameters!.map((p) => p.name)).toEqual(['topic', 'errorCode', 'pending', 'limit']);
    expect(document.paths['/v1/dlq-messages/{id}']!.get!.parameters).toEqual([
      { name: 'id', in: 'path', required: true, description: 'A record id: a positive whole number', schema: { type: 'string', pattern: '^[1-9][0-9]{0,17}$', description: 'A record id: a positive whole number' } },
    ]);
  });
});
