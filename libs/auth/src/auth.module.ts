import { Module, type DynamicModule } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ApiKeyGuard } from './api-key.guard';
import { ApiKeyUsageRecorder } from './api-key-usage.recorder';
import { ApiKeyService } from './api-key.service';
import { ApiKeyVerifier } from './api-key.verifier';
import { AUTH_OPTIONS, type AuthModuleOptions } from './auth.options';
import { TenantApiKeysService } from './tenant-api-keys.service';
import { PostgresRateBucketStore, RATE_BUCKET_STORE, RATE_LIMIT_OPTIONS, RateLimitGuard, type RateLimitOptions } from './rate-limit';

/**
 * API keys for every route of the importing app: the key guard, then the per-key rate limit.
 * Global guards run in the order they are provided, so a request is limited only once it is
 * known whose it is (a flood of bad keys is answered 401 from the key cache, not counted
 * against anyone's quota). With the `cluster` scope the limits' buckets are in the database
 * ({@link PostgresRateBucketStore}), shared by every api process.
 */
@Module({})
export class AuthModule {
  static forRoot(options: AuthModuleOptions & { rateLimit: RateLimitOptions }): DynamicModule {
    return {
      module: AuthModule,
      providers: [
        { provide: AUTH_OPTIONS, useValue: options },
        { provide: RATE_LIMIT_OPTIONS, useValue: options.rateLimit },
        ...(options.rateLimit.scope === 'cluster' ? [{ provide: RATE_BUCKET_STORE, useClass: PostgresRateBucketStore }] : []),
        ApiKeyVerifier,
        ApiKeyUsageRecorder,
        ApiKeyService,
        TenantApiKeysService,
        { provide: APP_GUARD, useClass: ApiKeyGuard },
        { provide: APP_GUARD, useClass: RateLimitGuard },
      ],
      exports: [ApiKeyService, ApiKeyVerifier, TenantApiKeysService],
    };
  }
}
