import { z } from 'zod';
import { OpenApiController } from './openapi.controller';
import { describeOperations } from './operation.description';

/** The tag of the document's own route. */
export const OPENAPI_DOCUMENT_TAG = 'documentation';

/** Enough of an OpenAPI document to know one: the rest is the OpenAPI 3.1 schema's to say. */
const OpenApiDocumentBodySchema = z.looseObject({
  openapi: z.string().regex(/^3\.1\.\d+$/),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.unknown()),
});

/** The description of `GET /openapi.json`, which every document built by `OpenApiModule` includes. */
export const OPENAPI_DOCUMENT_OPERATIONS = describeOperations(OpenApiController, {
  get: {
    summary: 'This OpenAPI document',
    description: 'The OpenAPI 3.1 document of this API, generated from its routes when the service started. `/docs` shows it as a page.',
    tags: [OPENAPI_DOCUMENT_TAG],
    operationId: 'openApiDocument',
    responses: { 200: { description: 'The document (JSON Schema 2020-12 for every schema).', schema: OpenApiDocumentBodySchema } },
  },
});
