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

  constructor(private readonly client: PgClient) {}

  /** Whether BEGIN has been sent: only then is there anything to commit or roll back. */
  get started(): boolean {
    return this.begun !== null;
  }

  /** Sends `config`, preceded by BEGIN when it is the transaction's first statement. */
  async query<T>(config: { name?: string; text: string; values: unknown[] }): Promise<PgResult<T>> {
    if (this.begun) return this.client.query<T>(config);
    if (!this.client.pipeline) {
      // A client that does not pipeline would queue the statement behind BEGIN anyway.
      this.begun = this.client.query(BEGIN);
      await this.begun;
      return this.client.query<T>(config);
    }
    const socket = this.client.connection?.stream;
    socket?.cork?.();
    try {
      this.begun = this.client.query(BEGIN);
      // A failed BEGIN fails the statement behind it too, and is awaited again at commit.
      this.begun.catch(() => undefined);
      return this.client.query<T>(config);
    } finally {
      socket?.uncork?.();
    }
  }

  /** Commits what was sent; nothing, when nothing was. Throws when BEGIN or COMMIT failed. */
  async commit(): Promise<void> {
    if (!this.begun) return;
    await this.begun;
    await this.client.query(COMMIT);
  }

  /** Rolls back what was sent, if anything; never throws (the connection may be gone). */
  async rollback(): Promise<void> {
    if (!this.begun) return;
    await this.client.query(ROLLBACK).catch(() => undefined);
  }
}
