import { Inject, Injectable, type OnModuleInit, type Type } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { buildOpenApiDocument, type OpenApiDocumentOptions } from './openapi-document.builder';
import type { OpenApiDocument } from './openapi.types';
import { OPENAPI_OPTIONS } from './openapi.tokens';
import { discoverRoutes } from './route.discovery';

/**
 * The app's OpenAPI document, built once when the app starts from the controllers Nest has
 * registered (every module's) and their descriptions. A route without a description, or a
 * description without a route, fails the start: the document cannot drift from the code.
 */
@Injectable()
export class OpenApiDocumentProvider implements OnModuleInit {
  private built: { document: OpenApiDocument; json: string } | null = null;

  constructor(
    private readonly discovery: DiscoveryService,
    @Inject(OPENAPI_OPTIONS) private readonly options: OpenApiDocumentOptions,
  ) {}

  onModuleInit(): void {
    const controllers = this.discovery
      .getControllers()
      .map((wrapper) => wrapper.metatype)
      .filter((metatype): metatype is Type<unknown> => typeof metatype === 'function');
    const document = buildOpenApiDocument(discoverRoutes(controllers), this.options);
    this.built = { document, json: JSON.stringify(document) };
  }

  get document(): OpenApiDocument {
    return this.ensureBuilt().document;
  }

  /** The document as served. */
  get json(): string {
    return this.ensureBuilt().json;
  }

  private ensureBuilt(): { document: OpenApiDocument; json: string } {
    if (!this.built) throw new Error('the OpenAPI document is built when the app starts (init)');
    return this.built;
  }
}
