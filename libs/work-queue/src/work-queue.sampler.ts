import type { Lane } from '@longhaul/contracts';
import { inTransaction, type DataSource } from '@longhaul/persistence';
import type { WorkQueueMetrics } from './work-queue.metrics';
import { WorkQueueRepository } from './work-queue.repository';

/** Longest a sampling statement may run in the database. */
const SAMPLE_STATEMENT_TIMEOUT_MS = 2_000;

/**
 * Sets the queue gauges (depth, running, oldest queued age) of the lanes a worker serves, meant
 * to run in a `MetricSampler` pass. A lane with no open item reads 0.
 */
export class WorkQueueSampler {
  private readonly repository: WorkQueueRepository;

  constructor(
    private readonly dataSource: DataSource,
    schema: string,
    private readonly lanes: readonly Lane[],
    private readonly metrics: WorkQueueMetrics,
  ) {
    this.repository = new WorkQueueRepository(schema);
  }

  async sample(): Promise<void> {
    const figures = await inTransaction(this.dataSource, async (sql) => {
      // The database gives up too, so a pass abandoned by its sampler does not hold a connection.
      await sql.execute(`SET LOCAL statement_timeout = ${SAMPLE_STATEMENT_TIMEOUT_MS}`);
      return this.repository.laneFigures(sql);
    });
    for (const lane of this.lanes) {
      const of = figures.find((f) => f.lane === lane);
      this.metrics.depth.set({ lane }, of?.queued ?? 0);
      this.metrics.running.set({ lane }, of?.running ?? 0);
      this.metrics.oldestAge.set({ lane }, of?.oldestQueuedSeconds ?? 0);
    }
  }

  /** Drops the gauges: an unreadable queue is unknown, not empty. */
  clear(): void {
    this.metrics.depth.reset();
    this.metrics.running.reset();
    this.metrics.oldestAge.reset();
  }
}
