import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import type { Kafka } from '@longhaul/messaging';
import type { DataSource } from '@longhaul/persistence';
import { DATA_SOURCE, KAFKA, LOGGER } from '@longhaul/platform';
import type { Logger } from '@longhaul/telemetry';
import { DlqMessageRecorder } from './dlq-message.recorder';

/** Runs the {@link DlqMessageRecorder} for the life of the api process. */
@Injectable()
export class DlqRecorderService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly recorder: DlqMessageRecorder;

  constructor(@Inject(KAFKA) kafka: Kafka, @Inject(DATA_SOURCE) dataSource: DataSource, @Inject(LOGGER) logger: Logger) {
    this.recorder = new DlqMessageRecorder(kafka, dataSource, logger);
  }

  onApplicationBootstrap(): Promise<void> {
    return this.recorder.start();
  }

  /** Before the database closes. */
  beforeApplicationShutdown(): Promise<void> {
    return this.recorder.stop();
  }
}
