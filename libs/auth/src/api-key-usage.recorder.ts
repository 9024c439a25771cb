import { Inject, Injectable, type BeforeApplicationShutdown } from '@nestjs/common';
import { withConnection, type DataSource } from '@longhaul/persistence';
import { DATA_SOURCE, LOGGER } from '@longhaul/platform';
import type { Logger } from '@longhaul/telemetry';
import { apiKeyRepository } from './api-key.repository';
import { AUTH_OPTIONS, type AuthModuleOptions } from './auth.options';

/** How finely a key's last use is recorded: one write a key this often, at most, from one process. */
export const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * Records when each API key was last used (`api.api_keys.last_used_at`), to the minute, so the
 * keys command can show which keys are still in service. The write happens beside the request,
 * never in its way: the request does not wait for it, and a failed write is logged and tried again
 * at the key's next request rather than refusing anyone. A process writes a key at most once a
 * {@link LAST_USED_RESOLUTION_MS}, and the statement itself skips a row written by any process
 * within the minute, so a busy key costs a row update a minute, not one a request.
 */
@Injectable()
export class ApiKeyUsageRecorder implements BeforeApplicationShutdown {
  /** Key id → when this process last wrote it (its clock); oldest first, bounded like the key cache. */
  private readonly writtenAt = new Map<string, number>();
  private readonly pending = new Set<Promise<void>>();
  private readonly maxEntries: number;
  /** The clock; tests replace it. */
  now: () => number = Date.now;

  constructor(
    @Inject(DATA_SOURCE) private readonly dataSource: DataSource,
    @Inject(AUTH_OPTIONS) options: AuthModuleOptions,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.maxEntries = options.maxCachedKeys ?? 10_000;
  }

  /** Notes that a request came with the key `keyId` (already verified). Returns at once. */
  used(keyId: string): void {
    const now = this.now();
    const last = this.writtenAt.get(keyId);
    if (last !== undefined && now - last < LAST_USED_RESOLUTION_MS) return;
    this.writtenAt.delete(keyId);
    this.writtenAt.set(keyId, now);
    for (const oldest of this.writtenAt.keys()) {
      if (this.writtenAt.size <= this.maxEntries) break;
      this.writtenAt.delete(oldest);
    }
    const write = this.write(keyId).then(
      () => undefined,
      (error: unknown) => {
        // Forget the attempt, so the key's next request tries again.
        if (this.writtenAt.get(keyId) === now) this.writtenAt.delete(keyId);
        this.logger.warn({ err: error, key_id: keyId }, 'API key use not recorded; retried at its next request');
      },
    );
    this.pending.add(write);
    void write.finally(() => this.pending.delete(write));
  }

  /** Writes still under way finish before the database pool closes. */
  async beforeApplicationShutdown(): Promise<void> {
    await Promise.all([...this.pending]);
  }

  /** Writes the row; tests replace it. */
  protected write(keyId: string): Promise<void> {
    return withConnection(this.dataSource, (sql) => apiKeyRepository.markUsed(sql, keyId));
  }
}
