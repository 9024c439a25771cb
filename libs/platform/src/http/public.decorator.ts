import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = 'longhaul:public';

/**
 * Marks a controller or route as reachable without an API key, in an app that guards its routes
 * with one (the api): health, readiness, metrics, the OpenAPI document, signed download links.
 * Everything else needs a key: public is the exception that has to be written down.
 */
export const Public = () => SetMetadata(IS_PUBLIC, true);
