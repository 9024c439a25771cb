import { PgBoss } from 'pg-boss';
import { PEER_ENQUEUE_IN_FLIGHT, PEER_STAGE_CONCURRENCY, type PeerAdapter, type PeerHandler, type PeerPayload, type PeerStage } from './peer.adapter';
import { dropPeerSchema, PEER_SCHEMAS } from './peer-schema.cleanup';
import { installedVersion } from './library.version';

/**
 * Fetch loops per stage × jobs per fetch = {@link PEER_STAGE_CONCURRENCY}. Two loops keep a fetch
 * under way while the other loop's batch runs; batches of more than one let `burstWhenBatchFull`
 * keep fetching without a pause while there is a backlog. Chosen by trying the splits on this
 * machine's kind (a private Postgres, 3-stage chains): 16 × 1 gave about 40 chains/s (each loop
 * pauses after every single-job fetch unless a NOTIFY lands), 4 × 4 about 155, 2 × 8 and 1 × 16
 * about 200 with similar latency.
 */
const FETCH_LOOPS = 2;
const BATCH_SIZE = PEER_STAGE_CONCURRENCY / FETCH_LOOPS;
/** pg-boss's lower bound for both polling intervals (its default is 2 s, 30 s with NOTIFY). */
const POLLING_INTERVAL_SECONDS = 0.5;
/**
 * Pool size: the 32 enqueues in flight, each stage's fetch loops, the LISTEN connection and
 * room for the sends the handlers make. pg-boss's default (10) would queue the enqueues.
 */
const POOL_MAX = PEER_ENQUEUE_IN_FLIGHT + 3 * FETCH_LOOPS + 6;

/** pg-boss 12 on the shared Postgres, in schema `bench_pgboss`. */
export class PgBossPeer implements PeerAdapter {
  readonly name = 'pg-boss';
  readonly settings = [
    `pg-boss ${installedVersion('pg-boss')}: \`new PgBoss({ connectionString, schema: '${PEER_SCHEMAS.pgBoss}', max: ${POOL_MAX}, useListenNotify: true })\`; each stage a queue made with \`createQueue(name, { notify: true })\`, so a send wakes the workers through LISTEN/NOTIFY instead of their next poll (the documented low-latency setting).`,
    `Enqueue: \`send(name, data)\`, one job per call: one INSERT committed by Postgres (durable, as Longhaul's accept is).`,
    `Workers: \`work(name, { localConcurrency: ${FETCH_LOOPS}, batchSize: ${BATCH_SIZE}, burstWhenBatchFull: true, pollingIntervalSeconds: ${POLLING_INTERVAL_SECONDS}, notifyPollingIntervalSeconds: ${POLLING_INTERVAL_SECONDS} }, handler)\` per stage: ${FETCH_LOOPS} fetch loops × ${BATCH_SIZE} jobs = ${PEER_STAGE_CONCURRENCY} jobs in flight per stage, refetching at once while fetches come back full, polling at pg-boss's minimum (0.5 s) as the backstop; a batch's jobs run in parallel and complete together. Of the splits tried (16 × 1, 4 × 4, 2 × 8, 1 × 16), 2 × 8 and 1 × 16 did best.`,
  ];
  readonly errors: string[] = [];
  private boss: PgBoss | null = null;

  constructor(private readonly databaseUrl: string) {}

  async start(): Promise<void> {
    await dropPeerSchema(this.databaseUrl, PEER_SCHEMAS.pgBoss);
    const boss = new PgBoss({ connectionString: this.databaseUrl, schema: PEER_SCHEMAS.pgBoss, max: POOL_MAX, useListenNotify: true, application_name: 'longhaul-bench-pgboss' });
    boss.on('error', (error: unknown) => this.errors.push(error instanceof Error ? error.message : String(error)));
    await boss.start();
    this.boss = boss;
    for (const stage of ['stage-1', 'stage-2', 'stage-3'] as const) await boss.createQueue(stage, { notify: true });
  }

  async enqueue(stage: PeerStage, payload: PeerPayload): Promise<void> {
    const id = await this.started().send(stage, payload);
    // null means pg-boss chose not to create the job (a singleton or throttle rule): not an accept.
    if (id === null) throw new Error(`pg-boss created no job on ${stage}`);
  }

  async work(stage: PeerStage, handler: PeerHandler): Promise<void> {
    const options = {
      localConcurrency: FETCH_LOOPS,
      batchSize: BATCH_SIZE,
      burstWhenBatchFull: true,
      pollingIntervalSeconds: POLLING_INTERVAL_SECONDS,
      notifyPollingIntervalSeconds: POLLING_INTERVAL_SECONDS,
    };
    await this.started().work<PeerPayload>(stage, options, async (jobs) => {
      await Promise.all(jobs.map((job) => handler(job.data)));
    });
  }

  async stop(): Promise<void> {
    const boss = this.boss;
    this.boss = null;
    try {
      if (boss) await boss.stop({ graceful: true, timeout: 10_000 });
    } finally {
      await dropPeerSchema(this.databaseUrl, PEER_SCHEMAS.pgBoss);
    }
  }

  private started(): PgBoss {
    if (!this.boss) throw new Error('pg-boss peer used before start()');
    return this.boss;
  }
}
