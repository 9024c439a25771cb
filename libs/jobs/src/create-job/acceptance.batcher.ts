import type { DataSource, Sql } from '@longhaul/persistence';
import { withConnection } from '@longhaul/persistence';
import type { JobAcceptance } from './job-acceptance.writer';

/** What the batcher needs of the writer: one job, or several in one statement. */
export interface AcceptanceWrites {
  write(sql: Sql, acceptance: JobAcceptance): Promise<Date>;
  writeMany(sql: Sql, acceptances: readonly JobAcceptance[]): Promise<Date>;
}

/** Options of {@link AcceptanceBatcher}. */
export interface AcceptanceBatcherOptions {
  /** Statements in flight at once; submits that arrive while they are all busy wait and go together. @defaultValue 1 */
  maxInFlight?: number;
  /** Most jobs in one statement. @defaultValue 64 */
  maxBatch?: number;
}

/**
 * One statement at a time: the api's one thread, not Postgres, limits a busy api, and every
 * statement costs it a round trip and a post-commit notification. With 16 clients, 4 in flight
 * carried 2.3 jobs a statement and 1 carried 7.8, and accepted about a quarter more per second
 * (docs/benchmarks/tuning.md, section 16). Postgres runs one WAL flush at a time, so a second
 * statement in flight mostly waits behind the first one's flush.
 * @see AcceptanceBatcherOptions.maxInFlight
 */
export const DEFAULT_ACCEPT_IN_FLIGHT = 1;
/** @see AcceptanceBatcherOptions.maxBatch */
export const DEFAULT_ACCEPT_BATCH = 64;

interface Waiting {
  acceptance: JobAcceptance;
  resolve: (now: Date) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit for submits without an `Idempotency-Key`. A submit that finds a statement slot
 * free (by default there is one) is written at once, alone; submits that arrive while every slot
 * is busy wait for the next free one and are written together, in ONE statement and one transaction
 * (`JobAcceptanceWriter.writeMany`). Each caller's promise resolves only once its job has
 * committed, so every 202 still stands for a durable job; a busy api pays one round trip, one
 * commit and one WAL flush for many jobs instead of one each.
 *
 * When a shared statement fails in Postgres (it answered with an error, so nothing of it was
 * written), each of its jobs is written again alone, so one job's failure is only its own. Any
 * other failure (the connection dropped: the statement may or may not have committed) is given
 * to every caller of that statement, as a lone submit's would be.
 */
export class AcceptanceBatcher {
  private readonly waiting: Waiting[] = [];
  private inFlight = 0;
  private readonly maxInFlight: number;
  private readonly maxBatch: number;

  constructor(
    private readonly dataSource: DataSource,
    private readonly writer: AcceptanceWrites,
    options: AcceptanceBatcherOptions = {},
  ) {
    this.maxInFlight = Math.max(1, options.maxInFlight ?? DEFAULT_ACCEPT_IN_FLIGHT);
    this.maxBatch = Math.max(1, options.maxBatch ?? DEFAULT_ACCEPT_BATCH);
  }

  /** Writes `acceptance` (alone or with others); resolves with the time it was stamped with once committed. */
  write(acceptance: JobAcceptance): Promise<Date> {
    return new Promise<Date>((resolve, reject) => {
      this.waiting.push({ acceptance, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    while (this.inFlight < this.maxInFlight && this.waiting.length > 0) {
      const batch = this.waiting.splice(0, this.maxBatch);
      this.inFlight += 1;
      void this.send(batch).finally(() => {
        this.inFlight -= 1;
        this.pump();
      });
    }
  }

  private async send(batch: Waiting[]): Promise<void> {
    if (batch.length === 1) return this.sendAlone(batch[0]!);
    try {
      const now = await withConnection(this.dataSource, (sql) => this.writer.writeMany(sql, batch.map((w) => w.acceptance)));
      for (const waiting of batch) waiting.resolve(now);
    } catch (error) {
      if (!answeredByPostgres(error)) {
        for (const waiting of batch) waiting.reject(error);
        return;
      }
      await Promise.all(batch.map((waiting) => this.sendAlone(waiting)));
    }
  }

  private async sendAlone(waiting: Waiting): Promise<void> {
    try {
      waiting.resolve(await withConnection(this.dataSource, (sql) => this.writer.write(sql, waiting.acceptance)));
    } catch (error) {
      waiting.reject(error);
    }
  }
}

/**
 * Whether Postgres itself refused the statement (an error message from the server, with its
 * severity and SQLSTATE): an autocommitted statement that fails is rolled back whole, so its jobs
 * can be written again without any being written twice. A socket error carries neither.
 */
function answeredByPostgres(error: unknown): boolean {
  const { code, severity } = (error ?? {}) as { code?: unknown; severity?: unknown };
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && typeof severity === 'string';
}
