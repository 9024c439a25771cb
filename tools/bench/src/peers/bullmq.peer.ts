import { createRequire } from 'node:module';
import { join } from 'node:path';
import { workspaceRoot } from '@longhaul/testing';
import { Queue, Worker } from 'bullmq';
import type { CpuGroup } from '../throughput/process-cpu.meter';
import { installedVersion } from './library.version';
import { PEER_STAGE_CONCURRENCY, PeerUnavailableError, type PeerAdapter, type PeerHandler, type PeerPayload, type PeerStage } from './peer.adapter';
import { RedisServerProcess } from './redis-server.process';

/** Options of {@link BullMqPeer}. */
export interface BullMqPeerOptions {
  /**
   * Run its redis-server with `--appendonly yes --appendfsync always`, so an accepted job is on
   * disk as Longhaul's is. @defaultValue false: `--save '' --appendonly no`, memory only
   */
  durable?: boolean;
  /** Folder for the redis-server's log. */
  logDir: string;
}

/** BullMQ 6 on a redis-server of its own (Debian's), started in `start()` and stopped in `stop()`. */
export class BullMqPeer implements PeerAdapter {
  readonly name: string;
  readonly settings: string[];
  readonly errors: string[] = [];
  private readonly redis: RedisServerProcess;
  private readonly queues = new Map<PeerStage, Queue>();
  private readonly workers: Worker[] = [];

  constructor(private readonly options: BullMqPeerOptions) {
    const durable = options.durable ?? false;
    this.name = durable ? 'BullMQ (AOF, fsync always)' : 'BullMQ';
    this.redis = new RedisServerProcess({ durable, logDir: options.logDir });
    this.settings = [
      durable
        ? `BullMQ ${installedVersion('bullmq')} on Debian's redis-server started with \`--save '' --appendonly yes --appendfsync always\`: redis answers a write only after it is fsynced to its append-only file, so an accepted job survives a crash, as Longhaul's does.`
        : `BullMQ ${installedVersion('bullmq')} on Debian's redis-server started with \`--save '' --appendonly no\`: **an accepted job is in memory only** and is lost if redis stops; Longhaul's accept is a committed Postgres transaction. The row "BullMQ (AOF, fsync always)" is the like-for-like comparison.`,
      `Enqueue: \`Queue.add(name, data)\` (one job per call, \`removeOnComplete: true\` as BullMQ's going-to-production advice has it, so finished jobs do not pile up in redis's memory), through one connection per queue, which the calls in flight share.`,
      `Workers: \`new Worker(name, processor, { concurrency: ${PEER_STAGE_CONCURRENCY} })\` per stage, waiting for jobs with redis's blocking commands rather than polling (BullMQ's default).`,
    ];
  }

  async start(): Promise<void> {
    // BullMQ 6 makes its redis client an optional peer dependency and loads it only on first use.
    try {
      createRequire(join(workspaceRoot(), 'package.json')).resolve('ioredis');
    } catch {
      throw new PeerUnavailableError("BullMQ 6 needs a redis client package and `ioredis` (its default, an optional peer dependency) is not installed in this workspace: add `ioredis` to the devDependencies to measure BullMQ");
    }
    await this.redis.start();
    const connection = { host: '127.0.0.1', port: this.redis.port };
    for (const stage of ['stage-1', 'stage-2', 'stage-3'] as const) {
      const queue = new Queue(stage, { connection, defaultJobOptions: { removeOnComplete: true } });
      queue.on('error', (error) => this.errors.push(error.message));
      await queue.waitUntilReady();
      this.queues.set(stage, queue);
    }
  }

  async enqueue(stage: PeerStage, payload: PeerPayload): Promise<void> {
    const queue = this.queues.get(stage);
    if (!queue) throw new Error('BullMQ peer used before start()');
    await queue.add(stage, payload);
  }

  async work(stage: PeerStage, handler: PeerHandler): Promise<void> {
    const worker = new Worker<PeerPayload>(stage, (job) => handler(job.data), {
      connection: { host: '127.0.0.1', port: this.redis.port },
      concurrency: PEER_STAGE_CONCURRENCY,
    });
    worker.on('error', (error) => this.errors.push(error.message));
    worker.on('failed', (_job, error) => this.errors.push(error.message));
    await worker.waitUntilReady();
    this.workers.push(worker);
  }

  processes(): CpuGroup[] {
    return [{ name: 'redis-server', pids: () => (this.redis.pid === undefined ? [] : [this.redis.pid]) }];
  }

  async stop(): Promise<void> {
    try {
      await Promise.all(this.workers.splice(0).map((worker) => worker.close()));
      await Promise.all([...this.queues.values()].map((queue) => queue.close()));
      this.queues.clear();
    } finally {
      await this.redis.stop();
    }
  }
}
