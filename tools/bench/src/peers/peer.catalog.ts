import { BullMqPeer } from './bullmq.peer';
import { GraphileWorkerPeer } from './graphile-worker.peer';
import type { PeerAdapter } from './peer.adapter';
import { PgBossPeer } from './pg-boss.peer';
import { RELAY_FLOOR_NAME, RelayFloorPeer } from './relay-floor.peer';

/** Where the peers run: the shared Postgres (its URL), the stack's Kafka, and a folder for redis-server's log. */
export interface PeerEnvironment {
  databaseUrl: string;
  kafkaBrokers: string;
  logDir: string;
}

/** One row of the peer tables: a name and a way to make a fresh adapter for each repetition. */
export interface PeerVariant {
  name: string;
  create(): PeerAdapter;
  /** A reference row of the chain benchmark, not a peer: the enqueue benchmark leaves it out. */
  chainOnly?: true;
}

/**
 * The peers in the order they run within each repetition. BullMQ twice: on a memory-only redis
 * (how it is usually run) and with every write fsynced (an accept as durable as Longhaul's).
 * Last, in the chain benchmark only, Longhaul's relay with nothing of the platform around it: what
 * the architecture's hops cost by themselves, beside what a Longhaul job costs.
 */
export function peerVariants(env: PeerEnvironment): PeerVariant[] {
  return [
    { name: 'pg-boss', create: () => new PgBossPeer(env.databaseUrl) },
    { name: 'graphile-worker', create: () => new GraphileWorkerPeer(env.databaseUrl) },
    { name: 'BullMQ', create: () => new BullMqPeer({ logDir: env.logDir }) },
    { name: 'BullMQ (AOF, fsync always)', create: () => new BullMqPeer({ logDir: env.logDir, durable: true }) },
    { name: RELAY_FLOOR_NAME, create: () => new RelayFloorPeer(env), chainOnly: true },
  ];
}
