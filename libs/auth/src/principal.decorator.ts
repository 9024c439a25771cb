import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest as Request } from 'fastify';
import { principalOf } from './principal';

/** A route parameter holding the request's verified {@link Principal}. */
export const CurrentPrincipal = createParamDecorator((_: unknown, context: ExecutionContext) => principalOf(context.switchToHttp().getRequest<Request>()));
