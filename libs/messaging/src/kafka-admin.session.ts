import type { Kafka } from 'kafkajs';

/** The kafkajs admin client. */
export type KafkaAdmin = ReturnType<Kafka['admin']>;

/**
 * One kafkajs admin connection for reads that must never hold anything up: consumer lag,
 * readiness. It connects lazily and without retries, and bounds every call by `timeoutMs`,
 * connect included: the timeout, not kafkajs's patient reconnects, decides how long a caller
 * waits. A call that fails or times out drops the connection, so the next one connects afresh.
 */
export class KafkaAdminSession {
  private connection: { admin: KafkaAdmin; ready: Promise<void> } | null = null;
  private closed = false;

  constructor(
    private readonly kafka: Kafka,
    /** Longest one call may take, connect included. */
    readonly timeoutMs: number,
  ) {}

  /** Runs `work` on the admin client; rejects once `timeoutMs` have passed or after {@link close}. */
  async run<T>(work: (admin: KafkaAdmin) => Promise<T>): Promise<T> {
    if (this.closed) throw new Error('Kafka admin session closed');
    try {
      return await withTimeout(
        this.admin().then((admin) => work(admin)),
        this.timeoutMs,
        `Kafka did not answer within ${this.timeoutMs} ms`,
      );
    } catch (error) {
      this.drop();
      throw error;
    }
  }

  /** Disconnects; later calls reject at once. */
  async close(): Promise<void> {
    this.closed = true;
    const connection = this.connection;
    this.connection = null;
    if (connection) {
      await withTimeout(connection.ready.then(() => connection.admin.disconnect()), this.timeoutMs, 'disconnect timed out').catch(() => undefined);
    }
  }

  private async admin(): Promise<KafkaAdmin> {
    if (!this.connection) {
      const admin = this.kafka.admin({ retry: { retries: 0 } });
      const ready = admin.connect();
      ready.catch(() => undefined);
      this.connection = { admin, ready };
    }
    await this.connection.ready;
    return this.connection.admin;
  }

  /** Forgets the connection; the old client is disconnected once its connect has settled. */
  private drop(): void {
    const connection = this.connection;
    this.connection = null;
    if (connection) void connection.ready.then(() => connection.admin.disconnect(), () => undefined).catch(() => undefined);
  }
}

/** `work`, or a rejection with `message` once `ms` have passed; the timer never keeps the process alive. */
export async function withTimeout<T>(work: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
    timer.unref();
  });
  work.catch(() => undefined); // a late failure after the timeout is not an unhandled rejection
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
