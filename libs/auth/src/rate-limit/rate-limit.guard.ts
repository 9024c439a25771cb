import { Inject, Injectable, Optional, type BeforeApplicationShutdown, type CanActivate, type ExecutionContext, type OnApplicationBootstrap } from '@nestjs/common';
import type { Registry } from 'prom-client';
import { ErrorCodes } from '@longhaul/contracts';
import { LOGGER, METRICS_REGISTRY, ProblemError } from '@longhaul/platform';
import type { Logger } from '@longhaul/telemetry';
import type { FastifyReply } from 'fastify';
import type { AuthenticatedRequest, Principal } from '../principal';
import { DEFAULT_RATE_LIMIT_POLICY, KEY_RATE_LIMIT_POLICY, rateLimitHeaders } from './rate-limit.headers';
import { rateLimitMetrics, type RateLimitMetrics } from './rate-limit.metrics';
import { RATE_LIMIT_CLOCK, RATE_LIMIT_OPTIONS, type RateLimitOptions } from './rate-limit.options';
import { RATE_BUCKET_STORE, type RateBucketStore } from './rate-bucket.store';
import { RateLimiter, type Clock, type RateLimitDecision } from './rate.limiter';
import { SharedRateLimiter } from './shared-rate.limiter';

/**
 * The per-key rate limit of the api. It runs after the API key guard and limits only requests
 * that carry a {@link Principal}: public routes (health, metrics, signed file links) pass
 * untouched. Each key is limited on its own, by its own `rateLimit` when it has one and by
 * {@link RateLimitOptions.quota} otherwise, so one tenant flooding the api never takes from
 * another's quota. Every limited response carries `RateLimit-Policy` and `RateLimit`; a refusal is
 * `429 rate_limited` with `Retry-After`. With the `cluster` scope the counts are shared by every
 * api process through the database ({@link SharedRateLimiter}); with `process` each process
 * counts alone ({@link RateLimiter}).
 */
@Injectable()
export class RateLimitGuard implements CanActivate, OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly limiter: RateLimiter | SharedRateLimiter;
  private readonly metrics: RateLimitMetrics;

  constructor(
    @Inject(RATE_LIMIT_OPTIONS) options: RateLimitOptions,
    @Inject(METRICS_REGISTRY) registry: Registry,
    @Optional() @Inject(RATE_LIMIT_CLOCK) clock?: Clock,
    @Optional() @Inject(RATE_BUCKET_STORE) store?: RateBucketStore,
    @Optional() @Inject(LOGGER) logger?: Logger,
  ) {
    if (options.scope === 'cluster') {
      if (!store || !logger) throw new Error('the cluster rate-limit scope needs a rate bucket store and a logger');
      this.limiter = new SharedRateLimiter(options, store, logger, options.leaseMs, clock);
    } else {
      this.limiter = new RateLimiter(options, clock);
    }
    this.metrics = rateLimitMetrics(registry);
  }

  onApplicationBootstrap(): void {
    if (this.limiter instanceof SharedRateLimiter) this.limiter.start();
  }

  /** Leased requests go back to the shared buckets before the database pool closes. */
  async beforeApplicationShutdown(): Promise<void> {
    if (this.limiter instanceof SharedRateLimiter) await this.limiter.close();
  }

  /** Synchronous while the key's count is at hand; a promise when the shared bucket must be asked. */
  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const http = context.switchToHttp();
    const principal = http.getRequest<AuthenticatedRequest>().principal;
    if (!principal) return true;
    const own = ownLimit(principal);
    const decision = this.limiter.take(principal.keyId, own);
    if (decision instanceof Promise) return decision.then((settled) => this.apply(http, principal, own, settled));
    return this.apply(http, principal, own, decision);
  }

  private apply(http: ReturnType<ExecutionContext['switchToHttp']>, principal: Principal, own: number | undefined, decision: RateLimitDecision): boolean {
    const headers = rateLimitHeaders(decision, own === undefined ? DEFAULT_RATE_LIMIT_POLICY : KEY_RATE_LIMIT_POLICY);
    // On the Node response itself, so answers streamed past the framework (event streams, file
    // downloads) carry them as well as the ones it sends.
    const response = http.getResponse<FastifyReply>().raw;
    for (const [name, value] of Object.entries(headers)) response.setHeader(name, value);
    if (decision.allowed) return true;
    this.metrics.refusals.inc({ tenant: principal.tenantId });
    throw rateLimited(decision, headers);
  }
}

/** The key's own limit; a missing or nonsensical one (the table allows only positive ones) means the default. */
function ownLimit(principal: Principal): number | undefined {
  const limit = principal.rateLimit;
  return typeof limit === 'number' && Number.isInteger(limit) && limit >= 1 ? limit : undefined;
}

/** `429 rate_limited`, carrying the rate-limit headers too: the problem filter sets them again. */
function rateLimited(decision: RateLimitDecision, headers: Record<string, string>): ProblemError {
  const retryAfterSeconds = decision.retryAfterSeconds ?? 1;
  const { problem } = ProblemError.of(
    429,
    ErrorCodes.rateLimited,
    `this API key is over its limit of ${decision.quota} requests per ${decision.windowSeconds} s; retry in ${retryAfterSeconds} s`,
    { quota: decision.quota, windowSeconds: decision.windowSeconds, retryAfterSeconds },
  );
  return new ProblemError(problem, headers);
}
