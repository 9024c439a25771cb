import type { Type } from '@nestjs/common';
import type { z } from 'zod';
import { PROBLEM_CONTENT_TYPE } from '../http/problem';
import { ProblemSchema } from '../http/problem.schema';

/**
 * What a route's code cannot say about itself, written beside the app's controllers: what it is
 * for, what it reads and what it answers. The rest (method, path, whether it needs an API key and
 * which scope) is read from the route's decorators when the document is built, so it cannot
 * disagree with the code.
 */

/** A header of an answer. */
export interface HeaderDescription {
  description: string;
  schema: z.ZodType;
  /** Whether every such answer carries it. @defaultValue false */
  required?: boolean;
}

/** One answer of an operation, by status. */
export interface ResponseDescription {
  description: string;
  /**
   * The body's schema (its output side: defaults applied, as the code writes it), sent as
   * `application/json` unless {@link contentTypes} says otherwise. Omitted: no body, or one the
   * document does not describe beyond its media types (a file, an event stream).
   */
  schema?: z.ZodType;
  /** The body's media types; wildcards (`video/*`) allowed. @defaultValue `application/json` with a schema, none without */
  contentTypes?: readonly string[];
  headers?: Readonly<Record<string, HeaderDescription>>;
  /** What a client can call next with this answer's values, by name (a created job → read it, cancel it). */
  links?: Readonly<Record<string, LinkDescription>>;
}

/**
 * An OpenAPI link: the operation (by `operationId`) and each of its parameters as a runtime
 * expression, `$response.body#/id`. Tools follow links to chain calls (schemathesis' stateful
 * phase); the builder refuses one whose operation or parameters do not exist.
 */
export interface LinkDescription {
  operationId: string;
  parameters: Readonly<Record<string, string>>;
  description?: string;
}

/** The body an operation reads. */
export interface RequestBodyDescription {
  description?: string;
  /**
   * The body's schema (its input side: what a client may send, defaults optional). Omitted: the
   * body is raw bytes of one of {@link contentTypes} (an upload).
   */
  schema?: z.ZodType;
  /** @defaultValue `application/json` */
  contentTypes?: readonly string[];
  /** @defaultValue true */
  required?: boolean;
}

/** One operation: a route's method and path, keyed by its controller and handler. */
export interface OperationDescription {
  summary: string;
  /** CommonMark; the builder appends who may call it (public, or the API key scope it needs). */
  description?: string;
  tags: readonly string[];
  /** @defaultValue `<controller stem><Handler>`, `jobsCreate` for `JobsController.create` */
  operationId?: string;
  /** Path parameters: must name exactly the route's own (`:id`, `*path`); each is required. */
  path?: z.ZodObject;
  /** Query parameters (input side), one per member; optional members are optional parameters. */
  query?: z.ZodObject;
  /** Request headers the operation reads (input side), by their HTTP name. */
  headers?: z.ZodObject;
  body?: RequestBodyDescription;
  /** Every answer the handler gives, by status. The builder adds what every keyed route may answer. */
  responses: Readonly<Record<number, ResponseDescription>>;
}

/** The handler names of controller `C`. */
export type HandlerName<C> = { [K in keyof C]: C[K] extends (...args: never[]) => unknown ? K : never }[keyof C] & string;

/** The operations of one controller, by handler name. */
export interface ControllerOperations<C = unknown> {
  readonly controller: Type<C>;
  readonly operations: Readonly<Partial<Record<HandlerName<C>, OperationDescription>>>;
}

/**
 * The operations of `controller`'s routes, keyed by handler name (checked by the compiler). The
 * document builder refuses to start when a route of the app has no description or a
 * description names no route.
 */
export function describeOperations<C>(controller: Type<C>, operations: Partial<Record<HandlerName<C>, OperationDescription>>): ControllerOperations<C> {
  return { controller, operations };
}

/** An error answer: a problem+json body (`components.schemas.Problem`), with `headers` if it has any. */
export function problemResponse(description: string, headers?: Readonly<Record<string, HeaderDescription>>): ResponseDescription {
  return { description, schema: ProblemSchema, contentTypes: [PROBLEM_CONTENT_TYPE], ...(headers ? { headers } : {}) };
}
