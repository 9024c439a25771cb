import 'reflect-metadata';
import { All, Controller, Get, Post } from '@nestjs/common';
import { Public } from '../http/public.decorator';
import { discoverRoutes, toOpenApiPath } from './route.discovery';

describe('toOpenApiPath', () => {
  it('writes :name and the wildcard *name as {name}', () => {
    expect(toOpenApiPath('/v1/jobs/:id/files/*path')).toEqual({ path: '/v1/jobs/{id}/files/{path}', parameters: ['id', 'path'] });
    expect(toOpenApiPath('/healthz')).toEqual({ path: '/healthz', parameters: [] });
  });

  it('refuses what has no OpenAPI form', () => {
    expect(() => toOpenApiPath('/v1/things{/:id}')).toThrow(/optional groups/);
    expect(() => toOpenApiPath('/v1/*')).toThrow(/nameless wildcards/);
  });
});

class BaseController {
  @Get('inherited')
  inherited(): string {
    return 'inherited';
  }
}

@Controller(['v1/a', 'v1/b'])
class TwoPrefixesController extends BaseController {
  @Public()
  @Get()
  list(): string {
    return 'list';
  }

  @Post(':id/go')
  go(): string {
    return 'go';
  }

  helper(): string {

    return 'helper';

  }
}

@Controller('v1/all')
class AllController {
  @All()
  any(): string {
    return 'any';
  }
}

describe('discoverRoutes', () => {
  it("reads each handler's method and joined path, inherited handlers and @Public() included", () => {
    const routes = discoverRoutes([TwoPrefixesController]).map((r) => `${r.method} ${r.path} ${r.handler} ${r.isPublic ? 'public' : 'keyed'}`);
    expect(routes.sort()).toEqual([
      'get /v1/a list public',
      'get /v1/a/inherited inherited keyed',
      'get /v1/b list public',
      'get /v1/b/inherited inherited keyed',
      'post /v1/a/{id}/go go keyed',
      'post /v1/b/{id}/go go keyed',
    ]);
  });

  it('refuses a route for every method', () => {
    expect(() => discoverRoutes([AllController])).toThrow(/AllController\.any: ALL routes have no OpenAPI operation/);
  });
});
