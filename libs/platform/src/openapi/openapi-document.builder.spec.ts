import 'reflect-metadata';
import { Controller, Delete, Get, Module, Param, Post, type INestApplication, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { fastifyAdapter } from '../http/fastify.adapter';
import { z } from 'zod';
import { Public } from '../http/public.decorator';
import { buildOpenApiDocument, danglingRefs, type OpenApiDocumentOptions } from './openapi-document.builder';
import { OpenApiModule } from './openapi.module';
import { describeOperations, problemResponse, type ControllerOperations } from './operation.description';
import { discoverRoutes } from './route.discovery';

const ThingSchema = z.object({ id: z.uuid(), name: z.string(), createdAt: z.iso.datetime({ offset: true }) });
const CreateThingSchema = z.strictObject({ name: z.string().min(1).max(100), tags: z.array(z.string()).default([]) });
const ThingIdSchema = z.object({ id: z.uuid() });

@Controller('v1/things')
class ThingsController {
  @Post()
  create(): string {
    return 'create';
  }

  @Get(':id')
  get(@Param('id') id: string): string {
    return id;
  }

  @Delete(':id')
  remove(): string {
    return 'remove';
  }

  @Get(':id/files/*path')
  file(): string {
    return 'file';
  }
}

@Public()
@Controller()
class PingController {
  @Get('ping')
  ping(): string {
    return 'pong';
  }
}

const thingOperations = describeOperations(ThingsController, {
  create: {
    summary: 'Create a thing',
    tags: ['things'],
    body: { schema: CreateThingSchema },
    responses: {
      201: {
        description: 'Created',
        schema: ThingSchema,
        headers: { Location: { description: 'The thing', schema: z.string(), required: true } },
        links: { read: { operationId: 'thingsGet', parameters: { 'path.id': '$response.body#/id' } } },
      },
      400: problemResponse('Invalid'),
    },
  },
  get: { summary: 'A thing', tags: ['things'], path: ThingIdSchema, responses: { 200: { description: 'The thing', schema: ThingSchema }, 404: problemResponse('No such thing') } },
  remove: { summary: 'Delete a thing', tags: ['things'], path: ThingIdSchema, responses: { 204: { description: 'Deleted' } } },
  file: {
    summary: 'A file of a thing',
    tags: ['things'],
    path: z.object({ id: z.uuid(), path: z.string() }),
    query: z.object({ download: z.enum(['true', 'false']).optional().describe('Ask for Content-Disposition: attachment') }),
    responses: { 200: { description: 'The file', contentTypes: ['*/*'] } },
  },
});
const pingOperations = describeOperations(PingController, { ping: { summary: 'Ping', tags: ['meta'], responses: { 200: { description: 'pong', schema: z.string() } } } });

function options(operations: ControllerOperations[], extra: Partial<OpenApiDocumentOptions> = {}): OpenApiDocumentOptions {
  return {
    info: { title: 'Things', version: '1.0.0' },
    servers: [{ url: 'http://127.0.0.1:3000' }],
    schemas: { Thing: ThingSchema },
    operations,
    security: {
      description: 'An API key',
      scopeOf: (route) => (route.method === 'get' ? 'read' : 'write'),
      responses: { 401: problemResponse('No key', { 'WWW-Authenticate': { description: 'Bearer', schema: z.string(), required: true } }) },
      headers: { RateLimit: { description: 'What is left', schema: z.string() } },
    },
    ...extra,
  };
}

const build = (controllers: Type<unknown>[], operations: ControllerOperations[], extra?: Partial<OpenApiDocumentOptions>) =>
  buildOpenApiDocument(discoverRoutes(controllers), options(operations, extra));

describe('buildOpenApiDocument', () => {
  const document = build([ThingsController, PingController], [thingOperations, pingOperations]);

  it('writes an OpenAPI 3.1 document with JSON Schema 2020-12 and the given servers', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.jsonSchemaDialect).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(document.servers).toEqual([{ url: 'http://127.0.0.1:3000' }]);
    expect(document.components.securitySchemes).toEqual({ bearer: { type: 'http', scheme: 'bearer', description: 'An API key' } });
    expect(document.security).toEqual([{ bearer: [] }]);
    expect(document.tags.map((t) => t.name)).toEqual(['things', 'meta']);
  });

  it('describes a keyed route with its schemas, scope, shared answers and headers', () => {
    const create = document.paths['/v1/things']!.post!;
    expect(create.operationId).toBe('thingsCreate');
    expect(create.security).toEqual([{ bearer: ['write'] }]);
    expect(create.description).toBe('Needs an API key with the `write` scope.');
    expect(create.requestBody).toEqual({
      required: true,
      content: {
        'application/json': {
          schema: {
            type: 'object',
            properties: { name: { type: 'string', minLength: 1, maxLength: 100 }, tags: { type: 'array', items: { type: 'string' }, default: [] } },
            required: ['name'],
            additionalProperties: false,
          },
        },
      },
    });
    expect(create.responses['201']!.content).toEqual({ 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } });
    expect(create.responses['201']!.headers).toEqual({
      RateLimit: { description: 'What is left', required: false, schema: { type: 'string' } },
      Location: { description: 'The thing', required: true, schema: { type: 'string' } },
    });
    expect(create.responses['400']!.content).toEqual({ 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } });
    expect(create.responses['401']!.headers!['WWW-Authenticate']!.required).toBe(true);
    expect(document.components.schemas['Thing']).toMatchObject({ type: 'object', required: ['id', 'name', 'createdAt'], additionalProperties: false });
    expect(document.components.schemas['Problem']).toMatchObject({ required: expect.arrayContaining(['type', 'title', 'status', 'code']) });
    expect(JSON.stringify(document.components.schemas['Problem'])).toContain('"errors"');
  });

  it('maps :id and the wildcard *path to OpenAPI path parameters', () => {
    const file = document.paths['/v1/things/{id}/files/{path}']!.get!;
    expect(file.security).toEqual([{ bearer: ['read'] }]);
    expect(file.parameters).toEqual([
      { name: 'id', in: 'path', required: true, schema: expect.objectContaining({ type: 'string', format: 'uuid' }) },
      { name: 'path', in: 'path', required: true, schema: { type: 'string' } },
      { name: 'download', in: 'query', required: false, description: 'Ask for Content-Disposition: attachment', schema: expect.objectContaining({ enum: ['true', 'false'] }) },
    ]);
    expect(file.responses['200']!.content).toEqual({ '*/*': {} });
    expect(document.paths['/v1/things/{id}']!.delete!.responses['204']).toEqual({ description: 'Deleted', headers: expect.any(Object) });
  });

  it('marks a public route as needing no key and gives it none of the keyed answers', () => {
    const ping = document.paths['/ping']!.get!;
    expect(ping.security).toEqual([]);
    expect(ping.description).toBe('Public: no API key needed.');
    expect(Object.keys(ping.responses)).toEqual(['200']);
    expect(ping.responses['200']!.headers).toBeUndefined();
  });

  it('holds every schema it refers to', () => {
    expect(danglingRefs(document)).toEqual([]);
    expect(JSON.stringify(document)).not.toContain('__in_place_');
    expect(JSON.stringify(document)).not.toContain('"$schema"');
  });

  it('refuses a route without a description and a description without a route, naming both', () => {
    const { ping: _ping, ...noPing } = pingOperations.operations;
    expect(() => build([ThingsController, PingController], [thingOperations, describeOperations(PingController, noPing)])).toThrow(
      /GET \/ping \(PingController\.ping\) has no operation description/,
    );
    expect(() => build([ThingsController], [thingOperations, pingOperations])).toThrow(/PingController\.ping is described but is no route/);
  });

  it('writes links and refuses one to an operation or parameter that does not exist', () => {
    expect(document.paths['/v1/things']!.post!.responses['201']!.links).toEqual({ read: { operationId: 'thingsGet', parameters: { 'path.id': '$response.body#/id' } } });
    const linking = (operationId: string, parameter: string) =>
      describeOperations(PingController, {
        ping: { summary: 'Ping', tags: ['meta'], responses: { 200: { description: 'pong', links: { next: { operationId, parameters: { [parameter]: '$response.body#/id' } } } } } },
      });
    expect(() => build([ThingsController, PingController], [thingOperations, linking('thingsRead', 'id')])).toThrow(/pingPing 200 link 'next': no operation 'thingsRead'/);
    expect(() => build([ThingsController, PingController], [thingOperations, linking('thingsGet', 'query.id')])).toThrow(/'thingsGet' has no parameter 'query.id'/);
  });

  it("refuses path parameters that are not the route's", () => {
    const wrong = describeOperations(ThingsController, { ...thingOperations.operations, get: { ...thingOperations.operations.get!, path: z.object({ thingId: z.uuid() }) } });
    expect(() => build([ThingsController], [wrong])).toThrow(/path parameters \(thingId\) are not the route's \(id\)/);
  });

  it('refuses a named schema that reads differently in a request and an answer', () => {
    const Shared = z.object({ name: z.string() });
    const shared = describeOperations(PingController, {
      ping: { summary: 'Ping', tags: ['meta'], body: { schema: Shared }, responses: { 200: { description: 'pong', schema: Shared } } },
    });
    expect(() => build([PingController], [shared], { schemas: { Shared } })).toThrow(/schema 'Shared' is used in a request and in an answer/);
  });
});

describe('OpenApiModule', () => {
  let app: INestApplication | null = null;
  afterEach(async () => {
    await app?.close();
    app = null;
  });

  async function start(operations: ControllerOperations[]): Promise<INestApplication> {
    @Module({ imports: [OpenApiModule.forRoot(options(operations))], controllers: [ThingsController, PingController] })
    class TestModule {}
    const created = await NestFactory.create(TestModule, fastifyAdapter(), { logger: false, bodyParser: false });
    app = created;
    return created;
  }

  it('serves the document of every registered route, its own included, at /openapi.json', async () => {
    const started = await start([thingOperations, pingOperations]);
    await started.listen(0, '127.0.0.1');
    const { port } = started.getHttpServer().address() as { port: number };
    const response = await fetch(`http://127.0.0.1:${port}/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const served = (await response.json()) as { openapi: string; paths: Record<string, Record<string, { security: unknown[] }>> };
    expect(served.openapi).toBe('3.1.0');
    expect(Object.keys(served.paths).sort()).toEqual(['/openapi.json', '/ping', '/v1/things', '/v1/things/{id}', '/v1/things/{id}/files/{path}']);
    expect(served.paths['/openapi.json']!['get']!.security).toEqual([]);
    expect(danglingRefs(served)).toEqual([]);
  });

  it('fails the start when a registered route has no description', async () => {
    const started = await start([thingOperations]);
    await expect(started.init()).rejects.toThrow(/GET \/ping \(PingController\.ping\) has no operation description/);
  });
});
