import type { BeforeApplicationShutdown, OnApplicationBootstrap } from '@nestjs/common';
import type { EventConsumer } from './event-consumer';

/**
 * Ties an {@link EventConsumer} to a NestJS app's life: it joins its group once every module is
 * ready and leaves it cleanly on shutdown, so the group rebalances at once instead of waiting
 * for the session to time out.
 */
export abstract class ConsumerLifecycle implements OnApplicationBootstrap, BeforeApplicationShutdown {
  protected constructor(readonly consumer: EventConsumer) {}

  onApplicationBootstrap(): Promise<void> {
    return this.consumer.start();
  }

  /** Before any module's `onApplicationShutdown`, so the database is still there. */
  beforeApplicationShutdown(): Promise<void> {
    return this.consumer.stop();
  }
}
