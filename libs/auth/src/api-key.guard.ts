import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { trace } from '@opentelemetry/api';
import { pathOf, LOGGER } from '@longhaul/platform';
import type { Logger } from '@longhaul/telemetry';
import { bearerToken } from './api-key.format';
import { ApiKeyUsageRecorder } from './api-key-usage.recorder';
import { ApiKeyVerifier } from './api-key.verifier';
import { insufficientScope, unauthenticated } from './auth.errors';
import type { AuthenticatedRequest } from './principal';
import { IS_PUBLIC } from './public.decorator';
import { impliedScope, REQUIRED_SCOPE } from './scope.decorator';
import type { Scope } from './principal';

/**
 * The api's global guard: every route not marked {@link Public} needs a valid API key with the
 * route's scope. It attaches the {@link Principal} to the request, and the tenant and key prefix
 * to the request's span and log lines, so every trace and log names who asked, and notes the
 * key's use for `keys list`. The key itself is never logged.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly verifier: ApiKeyVerifier,
    private readonly usage: ApiKeyUsageRecorder,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets)) return true;
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const token = bearerToken(request.headers.authorization);
    if (!token) throw unauthenticated('an API key is required: send it as Authorization: Bearer lh_…');
    const verification = await this.verifier.verify(token);
    if (!verification.ok) {
      this.logger.info({ reason: verification.reason, key_prefix: verification.prefix, path: pathOf(request.url) }, 'API key refused');
      throw unauthenticated(verification.reason === 'malformed' ? 'the API key is malformed (expected lh_<prefix>_<secret>)' : 'the API key is not valid');
    }
    const { principal } = verification;
    // A valid key was used, whether or not this route's scope is among its scopes.
    this.usage.used(principal.keyId);
    trace.getActiveSpan()?.setAttributes({ 'longhaul.tenant_id': principal.tenantId, 'longhaul.api_key_prefix': principal.keyPrefix });
    const required = this.reflector.getAllAndOverride<Scope | undefined>(REQUIRED_SCOPE, targets) ?? impliedScope(request.method);
    if (!principal.scopes.has(required)) throw insufficientScope(required);
    request.principal = principal;
    return true;
  }
}
