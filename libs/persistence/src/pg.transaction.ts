/** What node-postgres answers a statement with. */
export interface PgResult<T> {
  rows: T[];
  rowCount: number | null;
}

/** The part of node-postgres' client that a query runner's connection is. */
export interface PgClient {
  query<T>(config: { name?: string; text: string; values: unknown[] }): Promise<PgResult<T>>;
  /**
   * Set on a client made with `pipeline: true` (`createDataSource`'s pools): it writes each
   * statement as soon as it is issued, without waiting for the answer to the one before, and
   * hands the answers back in order.
   */
  readonly pipeline?: boolean;
  /** pg's connection to the server; its socket can be corked so several statements leave in one write. */
  readonly connection?: { stream?: { cork?(): void; uncork?(): void } };
}

const BEGIN = { text: 'BEGIN', values: [] };
const COMMIT = { text: 'COMMIT', values: [] };
const ROLLBACK = { text: 'ROLLBACK', values: [] };

/**
 * One transaction on one pg client, whose BEGIN is sent together with its first statement.
 *
 * Why: at a few events a second, each consumer transaction is its own round trip per statement,
 * and a round trip costs both processes a wake-up on this project's two cores (about 160 µs of
 * the client's and 60 µs of the backend's CPU for a trivial statement sent alone). On a
 * pipelining client BEGIN and the first statement go out in one socket write and come back in
 * one read, which takes one of the transaction's round trips away. A transaction that sends no
 * statement sends nothing at all, not even BEGIN and COMMIT.
 */
export class PgTransaction {
  private begun: Promise<unknown> | null = null;
  /**
   * On a client that does not pipeline: the last statement handed over, answered or failed. Each
   * statement is sent once the one before it is answered, in the order they were issued, even
   * when the first waits for BEGIN's answer.
   */
  private tail: Promise<unknown> = Promise.resolve();
  /** Why BEGIN failed, once its answer came back as a failure. */
  private beginFailure: unknown = null;

  constructor(private readonly client: PgClient) {}

  /** Whether BEGIN has been sent: only then is there anything to commit or roll back. */
  get started(): boolean {
    return this.begun !== null;
  }

  /** Sends `config`, preceded by BEGIN when it is the transaction's first statement. */
  async query<T>(config: { name?: string; text: string; values: unknown[] }): Promise<PgResult<T>> {
    if (!this.client.pipeline) return this.queryInTurn(config);
    if (this.begun) return this.client.query<T>(config);
    const socket = this.client.connection?.stream;
    socket?.cork?.();
    try {
      this.begun = this.client.query(BEGIN);
      // A failed BEGIN fails the statement behind it too, and is awaited again at commit.
      this.begun.catch((error: unknown) => {
        this.beginFailure = error;
      });
      return this.client.query<T>(config);
    } finally {
      socket?.uncork?.();
    }
  }

  /**
   * On a client that does not pipeline: sends `config` once BEGIN and every statement issued
   * before it are answered. No statement goes out after a failed BEGIN: it would run outside the
   * transaction.
   */
  private queryInTurn<T>(config: { name?: string; text: string; values: unknown[] }): Promise<PgResult<T>> {
    if (!this.begun) {
      this.begun = this.client.query(BEGIN);
      this.begun.catch(() => undefined);
    }
    const begun = this.begun;
    const answered = this.tail.then(() => begun).then(() => this.client.query<T>(config));
    this.tail = answered.catch(() => undefined);
    return answered;
  }

  /**
   * Commits what was sent; nothing, when nothing was. Throws when BEGIN or COMMIT failed. On a
   * pipelining client COMMIT goes out at once, behind whatever is still unanswered.
   */
  async commit(): Promise<void> {
    if (!this.begun) return;
    if (!this.client.pipeline || this.beginFailure) {
      await this.begun;
      await this.tail;
      await this.client.query(COMMIT);
      return;
    }
    // Behind what was sent, without waiting for BEGIN's answer: a transaction whose statements
    // were all issued at once commits in the same round trip.
    const committed = this.client.query(COMMIT);
    committed.catch(() => undefined);
    await this.begun;
    await committed;
  }

  /** Rolls back what was sent, if anything; never throws (the connection may be gone). */
  async rollback(): Promise<void> {
    if (!this.begun) return;
    if (!this.client.pipeline) await this.tail;
    await this.client.query(ROLLBACK).catch(() => undefined);
  }
}
