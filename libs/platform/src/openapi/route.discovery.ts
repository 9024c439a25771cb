import { RequestMethod, type Type } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { IS_PUBLIC } from '../http/public.decorator';
import type { HttpMethod } from './openapi.types';

/** One route of an app, as its controller's decorators declare it. */
export interface DiscoveredRoute {
  controller: Type<unknown>;
  /** The handler's method name on the controller. */
  handler: string;
  method: HttpMethod;
  /** As Nest routes it: `/v1/jobs/:id/files/*path`. */
  routePath: string;
  /** As OpenAPI writes it: `/v1/jobs/{id}/files/{path}`. */
  path: string;
  /** Its path parameters, in order: `['id', 'path']`. */
  pathParameters: string[];
  /** Marked `@Public()` on the handler or its controller: no API key. */
  isPublic: boolean;
}

const METHODS: Partial<Record<RequestMethod, HttpMethod>> = {
  [RequestMethod.GET]: 'get',
  [RequestMethod.POST]: 'post',
  [RequestMethod.PUT]: 'put',
  [RequestMethod.DELETE]: 'delete',
  [RequestMethod.PATCH]: 'patch',
  [RequestMethod.OPTIONS]: 'options',
  [RequestMethod.HEAD]: 'head',
};

/** `:name` and `*name` segments of a route as Nest declares it (path-to-regexp 8). */
const PARAMETER = /([:*])([A-Za-z_$][A-Za-z0-9_$]*)/g;

/**
 * The route path in OpenAPI's form, with its parameters: `:id` → `{id}`, and the wildcard
 * `*path` (one or more segments) → `{path}`. Optional groups (`{/:x}`) and nameless wildcards
 * cannot be written as an OpenAPI path and are refused.
 */
export function toOpenApiPath(routePath: string): { path: string; parameters: string[] } {
  if (/[{}()]/.test(routePath) || /\*(?![A-Za-z_$])/.test(routePath)) {
    throw new Error(`route ${routePath}: optional groups and nameless wildcards have no OpenAPI form`);
  }
  const parameters: string[] = [];
  const path = routePath.replace(PARAMETER, (_match, _kind: string, name: string) => {
    parameters.push(name);
    return `{${name}}`;
  });
  return { path, parameters };
}

/** Nest's join of a controller's and a handler's paths: one leading `/`, no doubled or trailing ones. */
function joinPath(prefix: string, path: string): string {
  const joined = `/${prefix}/${path}`.replace(/\/+/g, '/');
  return joined.length > 1 ? joined.replace(/\/$/, '') : joined;
}

const asList = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : [value === undefined ? '/' : String(value)]);

/** `@Public()` as the api's key guard reads it: the handler's mark, else its controller's. */
function isPublicRoute(controller: Type<unknown>, handler: (...args: never[]) => unknown): boolean {
  const own = Reflect.getMetadata(IS_PUBLIC, handler) as boolean | undefined;
  return own ?? (Reflect.getMetadata(IS_PUBLIC, controller) as boolean | undefined) ?? false;
}

/** The methods of a controller and of the classes it extends, as Nest's scanner finds handlers. */
function handlerNames(controller: Type<unknown>): string[] {
  const names = new Set<string>();
  for (let proto = controller.prototype as object | null; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto) as object | null) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      const descriptor = Object.getOwnPropertyDescriptor(proto, name);
      if (name !== 'constructor' && typeof descriptor?.value === 'function') names.add(name);
    }
  }
  return [...names];
}

/**
 * Every route the controllers declare, read from the metadata Nest's `@Controller()`, `@Get()`,
 * `@Post()`… decorators write (`PATH_METADATA`, `METHOD_METADATA`): what the router will serve.
 * A route for `ALL` or a WebDAV method has no OpenAPI operation and is refused.
 */
export function discoverRoutes(controllers: Iterable<Type<unknown>>): DiscoveredRoute[] {
  const routes: DiscoveredRoute[] = [];
  for (const controller of new Set(controllers)) {
    const prefixes = asList(Reflect.getMetadata(PATH_METADATA, controller));
    for (const handler of handlerNames(controller)) {
      const fn = (controller.prototype as Record<string, unknown>)[handler];
      if (typeof fn !== 'function') continue;
      const paths = Reflect.getMetadata(PATH_METADATA, fn) as unknown;
      const requestMethod = Reflect.getMetadata(METHOD_METADATA, fn) as RequestMethod | undefined;
      if (paths === undefined || requestMethod === undefined) continue;
      const method = METHODS[requestMethod];
      if (!method) throw new Error(`${controller.name}.${handler}: ${RequestMethod[requestMethod]} routes have no OpenAPI operation`);
      for (const prefix of prefixes) {
        for (const own of asList(paths)) {
          const routePath = joinPath(prefix, own);
          const { path, parameters } = toOpenApiPath(routePath);
          routes.push({
            controller,
            handler,
            method,
            routePath,
            path,
            pathParameters: parameters,
            isPublic: isPublicRoute(controller, fn as (...args: never[]) => unknown),
          });
        }
      }
    }
  }
  return routes;
}
