import type { z } from 'zod';
import { ProblemSchema } from '../http/problem.schema';
import type {
  HeaderDescription,
  ControllerOperations,
  OperationDescription,
  RequestBodyDescription,
  ResponseDescription,
} from './operation.description';
import type {
  JsonSchema,
  OpenApiDocument,
  OpenApiHeader,
  OpenApiInfo,
  OpenApiLink,
  OpenApiOperation,
  OpenApiParameter,
  OpenApiRequestBody,
  OpenApiResponse,
  OpenApiServer,
  OpenApiTag,
} from './openapi.types';
import type { DiscoveredRoute } from './route.discovery';
import { SchemaComponents } from './schema.components';

/** The JSON Schema dialect of every schema in the document. */
export const JSON_SCHEMA_DIALECT = 'https://json-schema.org/draft/2020-12/schema';

/** How the routes that are not `@Public()` authenticate: an HTTP bearer token. */
export interface OpenApiSecurityOptions {
  /** The scheme's name in `components.securitySchemes`. @defaultValue 'bearer' */
  name?: string;
  description: string;
  /** A hint at the token's form (`lh_<prefix>_<secret>`). @defaultValue none */
  bearerFormat?: string;
  /**
   * The scope a keyed route needs, read from the route itself (its decorators, its method), so
   * the document says what the guard enforces. @defaultValue none: any valid key
   */
  scopeOf?: (route: DiscoveredRoute) => string | undefined;
  /**
   * Answers any keyed operation may give besides its own (`401`, `403`, `429`). An operation's
   * own answer of the same status replaces the shared one. @defaultValue none
   */
  responses?: Readonly<Record<number, ResponseDescription>>;
  /** Headers of every answer a keyed operation describes itself (rate limits, say). @defaultValue none */
  headers?: Readonly<Record<string, HeaderDescription>>;
}

/** Options of {@link buildOpenApiDocument}. */
export interface OpenApiDocumentOptions {
  info: OpenApiInfo;
  /** @defaultValue `[{ url: '/' }]`: the origin the document was fetched from */
  servers?: OpenApiServer[];
  /** Tags in the order a reader sees them, with descriptions; tags operations use but this omits follow. @defaultValue none */
  tags?: OpenApiTag[];
  /**
   * Schemas shown by name in `components.schemas` and referenced wherever they appear; `Problem`
   * (the body of every error answer) is always one. @defaultValue only `Problem`
   */
  schemas?: Readonly<Record<string, z.ZodType>>;
  /** A description for every route, by controller and handler. */
  operations: readonly ControllerOperations[];
  security: OpenApiSecurityOptions;
}

const routeName = (route: DiscoveredRoute) => `${route.method.toUpperCase()} ${route.path} (${route.controller.name}.${route.handler})`;

/** `JobsController.create` → `jobsCreate`. */
function defaultOperationId(route: DiscoveredRoute): string {
  const stem = route.controller.name.replace(/Controller$/, '');
  return `${stem.charAt(0).toLowerCase()}${stem.slice(1)}${route.handler.charAt(0).toUpperCase()}${route.handler.slice(1)}`;
}

/**
 * The OpenAPI 3.1 document of an app's `routes` (see `discoverRoutes`), from their descriptions.
 * It fails, naming every mismatch, when a route has no description, a description names no
 * route, or a description's path parameters are not the route's: the document cannot drift from
 * the controllers. It also fails when a link names an operation or parameter that does not exist,
 * or a `$ref` would not resolve.
 */
export function buildOpenApiDocument(routes: readonly DiscoveredRoute[], options: OpenApiDocumentOptions): OpenApiDocument {
  const problems: string[] = [];
  const descriptions = new Map<string, OperationDescription>();
  const keyOf = (controller: { name: string }, handler: string) => `${controller.name}.${handler}`;
  const seenControllers = new Set<unknown>();
  for (const { controller, operations } of options.operations) {
    if (seenControllers.has(controller)) problems.push(`${controller.name} is described twice`);
    seenControllers.add(controller);
    for (const [handler, description] of Object.entries(operations as Record<string, OperationDescription | undefined>)) {
      if (description) descriptions.set(keyOf(controller, handler), description);
    }
  }

  const security = options.security;
  const schemeName = security.name ?? 'bearer';
  const schemas = new SchemaComponents({ Problem: ProblemSchema, ...options.schemas });
  const paths: OpenApiDocument['paths'] = {};
  const described = new Set<string>();
  const operationIds = new Set<string>();
  for (const route of routes) {
    const key = keyOf(route.controller, route.handler);
    const description = descriptions.get(key);
    if (!description) {
      problems.push(`${routeName(route)} has no operation description`);
      continue;
    }
    described.add(key);
    const pathItem = (paths[route.path] ??= {});
    if (pathItem[route.method]) {
      problems.push(`${routeName(route)} is routed twice`);
      continue;
    }
    const operation = operationOf(route, description, { schemas, security, schemeName, problems });
    if (operationIds.has(operation.operationId)) problems.push(`${routeName(route)}: operationId '${operation.operationId}' is taken`);
    operationIds.add(operation.operationId);
    pathItem[route.method] = operation;
  }
  for (const key of descriptions.keys()) if (!described.has(key)) problems.push(`${key} is described but is no route`);
  problems.push(...brokenLinks(paths));
  if (problems.length > 0) throw new Error(`the OpenAPI document does not match the routes:\n- ${problems.join('\n- ')}`);

  const used = new Set(Object.values(paths).flatMap((item) => Object.values(item).flatMap((op) => op.tags)));
  const listed = options.tags ?? [];
  const document: OpenApiDocument = {
    openapi: '3.1.0',
    jsonSchemaDialect: JSON_SCHEMA_DIALECT,
    info: options.info,
    servers: options.servers ?? [{ url: '/' }],
    tags: [...listed, ...[...used].filter((name) => !listed.some((tag) => tag.name === name)).map((name) => ({ name }))],
    paths,
    components: {
      schemas: schemas.resolve(),
      securitySchemes: {
        [schemeName]: { type: 'http', scheme: 'bearer', description: security.description, ...(security.bearerFormat ? { bearerFormat: security.bearerFormat } : {}) },
      },
    },
    security: [{ [schemeName]: [] }],
  };
  const dangling = danglingRefs(document);
  if (dangling.length > 0) throw new Error(`the OpenAPI document refers to what it does not hold: ${dangling.join(', ')}`);
  return document;
}

interface BuildContext {
  schemas: SchemaComponents;
  security: OpenApiSecurityOptions;
  schemeName: string;
  problems: string[];
}

function operationOf(route: DiscoveredRoute, description: OperationDescription, context: BuildContext): OpenApiOperation {
  const { schemas, security } = context;
  const scope = route.isPublic ? undefined : security.scopeOf?.(route);
  const access = route.isPublic ? 'Public: no API key needed.' : scope ? `Needs an API key with the \`${scope}\` scope.` : 'Needs an API key.';
  const pathNames = Object.keys(description.path?.shape ?? {});
  if (pathNames.length !== route.pathParameters.length || pathNames.some((name) => !route.pathParameters.includes(name))) {
    context.problems.push(`${routeName(route)}: the description's path parameters (${pathNames.join(', ') || 'none'}) are not the route's (${route.pathParameters.join(', ') || 'none'})`);
  }
  const parameters: OpenApiParameter[] = [
    ...route.pathParameters.filter((name) => pathNames.includes(name)).map((name) => parameterOf(name, 'path', description.path!.shape[name] as z.ZodType, schemas)),
    ...Object.entries(description.query?.shape ?? {}).map(([name, schema]) => parameterOf(name, 'query', schema as z.ZodType, schemas)),
    ...Object.entries(description.headers?.shape ?? {}).map(([name, schema]) => parameterOf(name, 'header', schema as z.ZodType, schemas)),
  ];
  const responses: Record<string, OpenApiResponse> = {};
  const sharedHeaders = route.isPublic ? {} : (security.headers ?? {});
  for (const [status, response] of Object.entries(description.responses)) responses[status] = responseOf(response, sharedHeaders, schemas);
  if (!route.isPublic) {
    for (const [status, response] of Object.entries(security.responses ?? {})) responses[status] ??= responseOf(response, {}, schemas);
  }
  return {
    operationId: description.operationId ?? defaultOperationId(route),
    summary: description.summary,
    description: description.description ? `${description.description}\n\n${access}` : access,
    tags: [...description.tags],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(description.body ? { requestBody: requestBodyOf(description.body, schemas) } : {}),
    responses,
    security: route.isPublic ? [] : [{ [context.schemeName]: scope ? [scope] : [] }],
  };
}

function parameterOf(name: string, location: OpenApiParameter['in'], schema: z.ZodType, schemas: SchemaComponents): OpenApiParameter {
  // A path parameter is always required; the others when their schema refuses a missing value.
  const required = location === 'path' || !schema.safeParse(undefined).success;
  const text = schema.description;
  return { name, in: location, required, ...(text ? { description: text } : {}), schema: schemas.use(schema, 'input') };
}

/** Raw bytes: what a client sends as an upload. */
const BINARY: JsonSchema = { type: 'string', format: 'binary' };

function requestBodyOf(body: RequestBodyDescription, schemas: SchemaComponents): OpenApiRequestBody {
  const types = body.contentTypes ?? ['application/json'];
  const schema = body.schema ? schemas.use(body.schema, 'input') : BINARY;
  return {
    ...(body.description ? { description: body.description } : {}),
    required: body.required ?? true,
    content: Object.fromEntries(types.map((type) => [type, { schema }])),
  };
}

function responseOf(response: ResponseDescription, shared: Readonly<Record<string, HeaderDescription>>, schemas: SchemaComponents): OpenApiResponse {
  const types = response.contentTypes ?? (response.schema ? ['application/json'] : []);
  const schema = response.schema ? schemas.use(response.schema, 'output') : undefined;
  const headers = Object.entries({ ...shared, ...response.headers }).map(([name, header]): [string, OpenApiHeader] => [
    name,
    { description: header.description, required: header.required ?? false, schema: schemas.use(header.schema, 'output') },
  ]);
  const links = Object.entries(response.links ?? {}).map(([name, link]): [string, OpenApiLink] => [
    name,
    { operationId: link.operationId, parameters: { ...link.parameters }, ...(link.description ? { description: link.description } : {}) },
  ]);
  return {
    description: response.description,
    ...(headers.length > 0 ? { headers: Object.fromEntries(headers) } : {}),
    ...(types.length > 0 ? { content: Object.fromEntries(types.map((type) => [type, schema ? { schema } : {}])) } : {}),
    ...(links.length > 0 ? { links: Object.fromEntries(links) } : {}),
  };
}

/** Links whose operation is not in the document, or that set a parameter it does not have. */
function brokenLinks(paths: OpenApiDocument['paths']): string[] {
  const operations = new Map(Object.values(paths).flatMap((item) => Object.values(item).map((op): [string, OpenApiOperation] => [op.operationId, op])));
  const broken: string[] = [];
  for (const source of operations.values()) {
    for (const [status, response] of Object.entries(source.responses)) {
      for (const [name, link] of Object.entries(response.links ?? {})) {
        const target = operations.get(link.operationId);
        const where = `${source.operationId} ${status} link '${name}'`;
        if (!target) {
          broken.push(`${where}: no operation '${link.operationId}'`);
          continue;
        }
        for (const parameter of Object.keys(link.parameters)) {
          // `path.id` names the location too; plain `id` any parameter of that name.
          const [location, parameterName] = parameter.includes('.') ? parameter.split('.', 2) : [undefined, parameter];
          if (!(target.parameters ?? []).some((p) => p.name === parameterName && (location === undefined || p.in === location))) {
            broken.push(`${where}: '${link.operationId}' has no parameter '${parameter}'`);
          }
        }
      }
    }
  }
  return broken;
}

/** Every local `$ref` of the document that points at nothing. */
export function danglingRefs(document: object): string[] {
  const dangling = new Set<string>();
  const resolves = (ref: string) =>
    ref
      .slice(2)
      .split('/')
      .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce<unknown>((node, part) => (node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined), document) !== undefined;
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (node === null || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string' && (!value.startsWith('#/') || !resolves(value))) dangling.add(value);
      else walk(value);
    }
  };
  walk(document);
  return [...dangling];
}
