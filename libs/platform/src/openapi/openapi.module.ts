import { Module, type DynamicModule } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import type { OpenApiDocumentOptions } from './openapi-document.builder';
import { OpenApiController } from './openapi.controller';
import { OpenApiDocumentProvider } from './openapi-document.provider';
import { OPENAPI_DOCUMENT_OPERATIONS } from './openapi.operations';
import { OPENAPI_OPTIONS } from './openapi.tokens';

/**
 * Serves the importing app's OpenAPI 3.1 document at `GET /openapi.json` (public), built once at
 * start from every registered controller and `options.operations`; the start fails when the two
 * disagree. The docs page (`apiDocsSite`) is static and mounted beside it.
 */
@Module({})
export class OpenApiModule {
  static forRoot(options: OpenApiDocumentOptions): DynamicModule {
    return {
      module: OpenApiModule,
      imports: [DiscoveryModule],
      controllers: [OpenApiController],
      providers: [
        // The document's own route is described here, so an app describes only its own.
        { provide: OPENAPI_OPTIONS, useValue: { ...options, operations: [...options.operations, OPENAPI_DOCUMENT_OPERATIONS] } },
        OpenApiDocumentProvider,
      ],
      exports: [OpenApiDocumentProvider],
    };
  }
}
