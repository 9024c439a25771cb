// The two ways the relay-lag benchmark loads the relay, one repetition at a time: probe rows
// INSERTed straight into an outbox (the relay alone), and jobs submitted to the api (the relay as
// a client's submits load it, with the rest of Longhaul running).

import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { EventTypes } from '@longhaul/contracts';
import type { ArrivalObserver } from './arrival.observer';
import type { JobSubmitter } from './job.submitter';
import { drainJobs } from './jobs.drain';
import { runPaced, type PacedRunReport } from './paced.sender';
import { lagSeries, type LagSample, type LagSeries } from './relay-lag.figures';
import { RELAY_PROBE_EVENT_TYPE, relayProbePayload } from './relay-probe.payload';
import { INSERT_RELAY_PROBE_SQL } from './relay-probe.sql';
import { wallNow } from './wall.clock';

/** The offered load of a repetition. */
export interface LagLoad {
  ratePerSecond: number;
  durationMs: number;
  maxInFlight: number;
  /** How long to wait, after the last send, for the last events to be seen. */
  observeTimeoutMs: number;
  signal: AbortSignal;
}

/** One repetition of one variant. */
export interface LagRep extends LagSeries {
  pace: PacedRunReport;
  /** Rows committed, or jobs accepted (202). */
  committed: number;
  /** Api answers other than 202, by status (`0`: no answer). */
  refusedByStatus: Record<string, number>;
  /** Api variant: how long the accepted jobs took to reach a terminal status after the last send, or null if they did not within the drain limit. */
  drainMs: number | null;
  /** Api variant: accepted jobs still not terminal when the drain wait ended. */
  undrained: number;
  /** Api variant: the accepted jobs. */
  jobIds: string[];
}

/** One repetition of probe rows: each a single-row INSERT, committed on its own. */
export async function runProbeRep(pool: Pool, observer: ArrivalObserver, load: LagLoad): Promise<LagRep> {
  const samples: LagSample[] = [];
  const pace = await runPaced({
    ...load,
    stopAtWindowEnd: true,
    send: async () => {
      const key = randomUUID();
      const payload = relayProbePayload(key, new Date());
      const sentAt = wallNow();
      await pool.query(INSERT_RELAY_PROBE_SQL, [randomUUID(), key, payload]);
      samples.push({ key, sentAt, ackedAt: wallNow() });
    },
  });
  return { ...(await observe(observer, RELAY_PROBE_EVENT_TYPE, samples, load)), pace, committed: samples.length, refusedByStatus: {}, drainMs: null, undrained: 0, jobIds: [] };
}

/**
 * One repetition of `POST /v1/jobs`: each accepted job's `TranscodeRequested.v1` is the event
 * timed. Then it waits (up to `drainTimeoutMs`) for every accepted job to end, so the next
 * repetition starts from an idle pipeline and nothing is left for the stack's next user.
 */
export async function runApiRep(
  submitter: JobSubmitter,
  db: Pool,
  observer: ArrivalObserver,
  load: LagLoad & { drainTimeoutMs: number },
): Promise<LagRep> {
  const samples: LagSample[] = [];
  const refusedByStatus: Record<string, number> = {};
  const pace = await runPaced({
    ...load,
    stopAtWindowEnd: true,
    send: async () => {
      const outcome = await submitter.submit();
      if (outcome.status === 202 && outcome.jobId) samples.push({ key: outcome.jobId, sentAt: outcome.sentAt, ackedAt: outcome.answeredAt });
      else refusedByStatus[String(outcome.status)] = (refusedByStatus[String(outcome.status)] ?? 0) + 1;
    },
  });
  const lastSend = wallNow();
  const series = await observe(observer, EventTypes.TranscodeRequestedV1, samples, load);
  const jobIds = samples.map((s) => s.key);
  const { drainMs, undrained } = await drainJobs(db, jobIds, lastSend, load.drainTimeoutMs, load.signal);
  return { ...series, pace, committed: samples.length, refusedByStatus, drainMs, undrained, jobIds };
}

async function observe(observer: ArrivalObserver, type: string, samples: LagSample[], load: LagLoad): Promise<LagSeries> {
  const keys = samples.map((s) => s.key);
  await observer.waitForAll(type, keys, load.observeTimeoutMs, load.signal);
  for (const sample of samples) sample.arrival = observer.arrival(type, sample.key);
  return lagSeries(samples);
}
