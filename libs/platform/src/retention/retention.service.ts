import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import type { Registry } from 'prom-client';
import type { CommonEnv } from '@longhaul/config';
import { ErrorCodes, Topics } from '@longhaul/contracts';
import { InboxPruner, type KafkaAdminSession } from '@longhaul/messaging';
import { OutboxPruner, OutboxRelay } from '@longhaul/outbox';
import { deleteInBatches, restingFor, withConnection, type DataSource, type HistoryTable } from '@longhaul/persistence';
import type { Logger } from '@longhaul/telemetry';
import { PollingLoop } from '../polling.loop';
import { DATA_SOURCE, KAFKA_ADMIN, LOGGER, METRICS_REGISTRY, SERVICE_INFO, type ServiceInfo } from '../service.tokens';
import { retentionMetrics, type RetentionMetrics } from './retention.metrics';

/** The retention loops, as their names and failure logs call them. */
type RetentionLoop = 'outbox' | 'inbox' | 'history';

/** What one pass deleted from one table (`table` as the metric's label names it). */
interface PrunedRows {
  table: string;
  deleted: number;
}

/** The retention settings of `CommonEnv`, validated at start. */
export type RetentionSettings = Pick<CommonEnv, 'OUTBOX_RETENTION_MS' | 'INBOX_RETENTION_MS' | 'JOB_RETENTION_MS' | 'RETENTION_INTERVAL_MS' | 'RETENTION_BATCH_SIZE'>;

/** Provider token of the {@link RetentionSettings} `CoreModule` hands {@link RetentionService}. */
export const RETENTION_SETTINGS = Symbol('longhaul.retentionSettings');

/** Provider token of the service's {@link HistoryTable}s, thinned past `JOB_RETENTION_MS`. */
export const HISTORY_TABLES = Symbol('longhaul.historyTables');

/** How many times as long as a full batch took a drain rests after it (`restingFor`): a quarter duty. */
export const RETENTION_REST_RATIO = 3;

/**
 * Deletes this service's old `outbox` and `inbox` rows, and its finished records past
 * `JOB_RETENTION_MS` (its {@link HistoryTable}s, unless that is 0), for the life of the process:
 * one loop for each of outbox, inbox and history, a pass every `RETENTION_INTERVAL_MS`, each pass
 * draining in batches of `RETENTION_BATCH_SIZE` and resting {@link RETENTION_REST_RATIO} times as
 * long as each full batch took (`OutboxPruner`, `InboxPruner` and each history table say what is
 * deletable). A failed pass is
 * logged with `retention_prune_failed` and tried again next interval; it never stops the service.
 * Several instances of one service prune the same schema side by side: each batch skips the rows
 * another is deleting.
 */
@Injectable()
export class RetentionService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly loops: PollingLoop[];
  private readonly log: Logger;
  private readonly metrics: RetentionMetrics;
  private stopping = false;

  constructor(
    @Inject(RETENTION_SETTINGS) settings: RetentionSettings,
    @Inject(DATA_SOURCE) dataSource: DataSource,
    @Inject(KAFKA_ADMIN) kafkaAdmin: KafkaAdminSession,
    @Inject(METRICS_REGISTRY) registry: Registry,
    @Inject(SERVICE_INFO) info: ServiceInfo,
    @Inject(LOGGER) logger: Logger,
    @Inject(HISTORY_TABLES) history: HistoryTable[],
  ) {
    this.log = logger.child({ component: 'retention' });
    this.metrics = retentionMetrics(registry);
    const batchSize = settings.RETENTION_BATCH_SIZE;
    // A backlog (a relay or a service that was away, a benchmark's rows) is deleted at a quarter
    // of one connection's time rather than in one burst: one pass deleted 162 803 outbox rows back
    // to back on a two-core machine while the integration suites ran against it.
    const rest = restingFor(RETENTION_REST_RATIO);
    const outbox = new OutboxPruner(dataSource, { schema: info.schema, slot: OutboxRelay.slot, retentionMs: settings.OUTBOX_RETENTION_MS, batchSize, rest });
    const inbox = new InboxPruner(dataSource, kafkaAdmin, {
      schema: info.schema,
      topics: Object.values(Topics),
      retentionMs: settings.INBOX_RETENTION_MS,
      batchSize,
      rest,
    });
    const stopping = () => this.stopping;
    this.loops = [
      this.loop('outbox', settings.RETENTION_INTERVAL_MS, async () => {
        const result = await outbox.prune(stopping);
        if (result.held) {
          this.log.warn({ code: ErrorCodes.relaySlotUnavailable, slot: OutboxRelay.slot, reason: result.held }, 'outbox rows kept: the relay slot cannot say what was relayed');
        }
        return [{ table: 'outbox', deleted: result.deleted }];
      }),
      this.loop('inbox', settings.RETENTION_INTERVAL_MS, async () => {
        const result = await inbox.prune(stopping);
        if (result.keptForTopics.length > 0) {
          this.log.warn({ code: ErrorCodes.inboxRetentionUnsafe, topics: result.keptForTopics }, 'inbox rows past the retention kept: their topics still hold older messages');
        }
        return [{ table: 'inbox', deleted: result.deleted }];
      }),
    ];
    if (settings.JOB_RETENTION_MS > 0 && history.length > 0) {
      // One loop for all of them, one table after another, so together they never take more of
      // the database than one drain does. A table that fails ends the pass; the next retries.
      this.loops.push(
        this.loop('history', settings.RETENTION_INTERVAL_MS, async () => {
          const pruned: PrunedRows[] = [];
          for (const table of history) {
            const drained = await deleteInBatches(
              (limit) => withConnection(dataSource, (sql) => table.deleteExpired(sql, settings.JOB_RETENTION_MS, limit)),
              batchSize,
              stopping,
              rest,
            );
            pruned.push({ table: table.name, deleted: drained.deleted });
          }
          return pruned;
        }),
      );
    }
  }

  onApplicationBootstrap(): void {
    for (const loop of this.loops) loop.start();
  }

  /** Before `CoreModule` closes the data source; a drain in flight stops after its current batch. */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    await Promise.all(this.loops.map((loop) => loop.stop()));
  }

  /** A loop whose pass runs `prune`, counts and logs what it deleted per table, and logs, never throws, a failure. */
  private loop(name: RetentionLoop, intervalMs: number, prune: () => Promise<PrunedRows[]>): PollingLoop {
    return new PollingLoop(`${name}-retention`, intervalMs, async () => {
      try {
        for (const { table, deleted } of await prune()) {
          if (deleted === 0) continue;
          this.metrics.prunedRows.inc({ table }, deleted);
          this.log.info({ table, deleted }, 'old rows pruned');
        }
      } catch (error) {
        if (!this.stopping) this.log.warn({ err: error, code: ErrorCodes.retentionPruneFailed, table: name }, 'retention pass failed; will retry next interval');
      }
      return false;
    }, this.log);
  }
}
