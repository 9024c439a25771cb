import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import type { DataSource } from '@longhaul/persistence';
import { DATA_SOURCE, LOGGER, PollingLoop } from '@longhaul/platform';
import { BLOB_STORE, type BlobStore } from '@longhaul/storage';
import type { Logger } from '@longhaul/telemetry';
import { BlobPurger } from '../retention/blob.purger';
import { JOBS_OPTIONS, type JobsModuleOptions } from '../jobs.options';
import { SAGA_DEPS } from '../jobs.tokens';
import { RetryScheduler } from '../retry/retry.scheduler';
import type { JobSagaDeps } from '../saga/job-saga.handlers';
import { JobWatchdog } from '../watchdog/job.watchdog';

/**
 * Runs the retry scheduler, the watchdog and, with a blob store, the purge of deleted jobs'
 * blobs for the life of the api process.
 */
@Injectable()
export class BackgroundLoopsService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly loops: PollingLoop[];

  constructor(
    @Inject(DATA_SOURCE) dataSource: DataSource,
    @Inject(LOGGER) logger: Logger,
    @Inject(JOBS_OPTIONS) options: JobsModuleOptions,
    @Inject(SAGA_DEPS) deps: JobSagaDeps,
    @Inject(BLOB_STORE) store: BlobStore | null,
  ) {
    const scheduler = new RetryScheduler(dataSource, deps.dispatcher, logger.child({ component: 'retry-scheduler' }));
    const watchdog = new JobWatchdog(dataSource, deps.failures, options.watchdog, logger.child({ component: 'watchdog' }));
    this.loops = [
      new PollingLoop('retry-scheduler', options.schedulerPollMs, () => scheduler.dispatchDue(), logger),
      new PollingLoop('watchdog', options.watchdog.intervalMs, () => watchdog.sweep(), logger),
    ];
    if (store) {
      const purger = new BlobPurger(dataSource, store, logger.child({ component: 'blob-purge' }));
      this.loops.push(new PollingLoop('blob-purge', options.blobPurgeIntervalMs, () => purger.purge(), logger));
    }
  }

  onApplicationBootstrap(): void {
    for (const loop of this.loops) loop.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await Promise.all(this.loops.map((loop) => loop.stop()));
  }
}
