import { Logger, makeWorkerUtils, run, type Runner, type WorkerUtils } from 'graphile-worker';
import { installedVersion } from './library.version';
import { PEER_ENQUEUE_IN_FLIGHT, PEER_STAGE_CONCURRENCY, type PeerAdapter, type PeerHandler, type PeerPayload, type PeerStage } from './peer.adapter';
import { dropPeerSchema, PEER_SCHEMAS } from './peer-schema.cleanup';

/** The documentation's advice for a runner's pool: `concurrentJobs + 2` (or 10, if larger). */
const RUNNER_POOL_SIZE = Math.max(10, PEER_STAGE_CONCURRENCY + 2);
/** The utilities' pool carries the enqueues: 32 in flight, plus the handlers' next-stage adds. */
const UTILS_POOL_SIZE = PEER_ENQUEUE_IN_FLIGHT + 2;
/**
 * The documentation's starting point for the local queue: `concurrentJobs + 1`. It fetches (and
 * locks) jobs a batch at a time and hands them to the runner's workers without a round trip each.
 */
const LOCAL_QUEUE_SIZE = PEER_STAGE_CONCURRENCY + 1;
/** Only for jobs that NOTIFY cannot announce (future `runAt`, retries); new jobs arrive by LISTEN. */
const POLL_INTERVAL_MS = 500;

/** graphile-worker 0.18 on the shared Postgres, in schema `bench_graphile`. */
export class GraphileWorkerPeer implements PeerAdapter {
  readonly name = 'graphile-worker';
  readonly settings = [
    `graphile-worker ${installedVersion('graphile-worker')}: schema \`${PEER_SCHEMAS.graphileWorker}\`, installed with \`makeWorkerUtils(…).migrate()\`. New jobs reach the workers through its built-in LISTEN/NOTIFY (a trigger on the jobs table); \`pollInterval: ${POLL_INTERVAL_MS}\` only bounds the wait for jobs that NOTIFY does not announce.`,
    `Enqueue: \`addJob(task, payload)\` through \`makeWorkerUtils({ maxPoolSize: ${UTILS_POOL_SIZE} })\`, one job per call: one \`add_job\` call committed by Postgres.`,
    `Workers: one \`run({ taskList: { [stage]: task }, concurrency: ${PEER_STAGE_CONCURRENCY}, maxPoolSize: ${RUNNER_POOL_SIZE}, preset: { worker: { localQueue: { size: ${LOCAL_QUEUE_SIZE} }, completeJobBatchDelay: 0 } } })\` per stage: the pool size and local queue size are the documentation's recommended starting points (\`concurrentJobs + 2\`, \`concurrentJobs + 1\`), and completions are batched within one tick (\`completeJobBatchDelay: 0\`), as in its performance page's configuration.`,
  ];
  readonly errors: string[] = [];
  private utils: WorkerUtils | null = null;
  private readonly runners: Runner[] = [];
  /** Graphile logs at `info` on every start and stop: only its errors are kept, for the report. */
  private readonly logger = new Logger(() => (level, message) => {
    if (level === 'error') this.errors.push(message);
  });

  constructor(private readonly databaseUrl: string) {}

  async start(): Promise<void> {
    await dropPeerSchema(this.databaseUrl, PEER_SCHEMAS.graphileWorker);
    const utils = await makeWorkerUtils({ connectionString: this.databaseUrl, schema: PEER_SCHEMAS.graphileWorker, maxPoolSize: UTILS_POOL_SIZE, logger: this.logger });
    this.utils = utils;
    await utils.migrate();
  }

  async enqueue(stage: PeerStage, payload: PeerPayload): Promise<void> {
    if (!this.utils) throw new Error('graphile-worker peer used before start()');
    await this.utils.addJob(stage, payload);
  }

  async work(stage: PeerStage, handler: PeerHandler): Promise<void> {
    const runner = await run({
      connectionString: this.databaseUrl,
      schema: PEER_SCHEMAS.graphileWorker,
      maxPoolSize: RUNNER_POOL_SIZE,
      concurrency: PEER_STAGE_CONCURRENCY,
      pollInterval: POLL_INTERVAL_MS,
      noHandleSignals: true,
      logger: this.logger,
      // No crontab file is read: the benchmark schedules nothing.
      crontab: '',
      taskList: { [stage]: (payload) => handler(payload as PeerPayload) },
      preset: { worker: { localQueue: { size: LOCAL_QUEUE_SIZE }, completeJobBatchDelay: 0 } },
    });
    this.runners.push(runner);
  }

  async stop(): Promise<void> {
    const runners = this.runners.splice(0);
    const utils = this.utils;
    this.utils = null;
    try {
      await Promise.all(runners.map((runner) => runner.stop()));
      await utils?.release();
    } finally {
      await dropPeerSchema(this.databaseUrl, PEER_SCHEMAS.graphileWorker);
    }
  }
}
