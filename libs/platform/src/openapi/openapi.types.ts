/**
 * The parts of an OpenAPI 3.1 document Longhaul writes (https://spec.openapis.org/oas/v3.1.0).
 * Schemas are JSON Schema 2020-12 objects, as zod's `toJSONSchema` emits them.
 */

/** A JSON Schema (2020-12) object. */
export type JsonSchema = { [keyword: string]: unknown };

export interface OpenApiServer {
  url: string;
  description?: string;
}

export interface OpenApiInfo {
  title: string;
  version: string;
  description?: string;
  license?: { name: string; identifier?: string; url?: string };
}

export interface OpenApiParameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  description?: string;
  schema: JsonSchema;
}

export interface OpenApiMediaType {
  schema?: JsonSchema;
}

export interface OpenApiHeader {
  description?: string;
  required?: boolean;
  schema: JsonSchema;
}

/** A call a client can make with values of an answer (`$response.body#/id`). */
export interface OpenApiLink {
  operationId: string;
  parameters: Record<string, string>;
  description?: string;
}

export interface OpenApiResponse {
  description: string;
  headers?: Record<string, OpenApiHeader>;
  content?: Record<string, OpenApiMediaType>;
  links?: Record<string, OpenApiLink>;
}

export interface OpenApiRequestBody {
  description?: string;
  required: boolean;
  content: Record<string, OpenApiMediaType>;
}

/** `[{ <scheme>: [<scope>…] }]`; `[]` for an operation anyone may call. */
export type OpenApiSecurityRequirement = Record<string, string[]>;

export interface OpenApiOperation {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  parameters?: OpenApiParameter[];
  requestBody?: OpenApiRequestBody;
  responses: Record<string, OpenApiResponse>;
  security: OpenApiSecurityRequirement[];
}

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export type OpenApiPathItem = Partial<Record<HttpMethod, OpenApiOperation>>;

export interface OpenApiSecurityScheme {
  type: 'http';
  scheme: 'bearer';
  bearerFormat?: string;
  description?: string;
}

export interface OpenApiTag {
  name: string;
  description?: string;
}

export interface OpenApiDocument {
  openapi: '3.1.0';
  jsonSchemaDialect: string;
  info: OpenApiInfo;
  servers: OpenApiServer[];
  tags: OpenApiTag[];
  paths: Record<string, OpenApiPathItem>;
  components: {
    schemas: Record<string, JsonSchema>;
    securitySchemes: Record<string, OpenApiSecurityScheme>;
  };
  security: OpenApiSecurityRequirement[];
}
