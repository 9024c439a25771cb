import { Controller, Get, Header } from '@nestjs/common';
import { Public } from '../http/public.decorator';
import { OpenApiDocumentProvider } from './openapi-document.provider';

/** `GET /openapi.json`: the app's OpenAPI 3.1 document, as built at start. Anyone may read it. */
@Public()
@Controller()
export class OpenApiController {
  constructor(private readonly document: OpenApiDocumentProvider) {}

  @Get('openapi.json')
  @Header('Content-Type', 'application/json; charset=utf-8')
  // Revalidated every time: a new release must be seen at once (the body is small).
  @Header('Cache-Control', 'no-cache')
  get(): string {
    return this.document.json;
  }
}
