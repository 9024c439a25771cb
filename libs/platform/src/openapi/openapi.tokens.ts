/** Injection token of the {@link OpenApiDocumentOptions} given to `OpenApiModule.forRoot`. */
export const OPENAPI_OPTIONS = Symbol('longhaul.openapi.options');

/** Where the document is served. */
export const OPENAPI_DOCUMENT_PATH = '/openapi.json';
