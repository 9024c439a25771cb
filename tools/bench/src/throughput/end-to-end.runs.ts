// The end-to-end benchmark's two kinds of repetition against running services: a fixed offered
// rate (latency, and where it goes) and a batch at saturation (completed jobs per second).

import { setTimeout as delay } from 'node:timers/promises';
import type { Pool } from 'pg';
import { EventTypes } from '@longhaul/contracts';
import type { ArrivalObserver } from './arrival.observer';
import { countByStatus, countNotifierRecorded, readChainTimelines } from './chain-timeline.repository';
import type { ChainRecord } from './chain.stages';
import type { JobSubmitter } from './job.submitter';
import { runPaced, type PacedRunReport } from './paced.sender';
import { wallNow } from './wall.clock';

/** Limits of the waits after the submits. */
export interface CompletionWaits {
  /** For every accepted job's `JobCompleted.v1` to be readable. */
  completedTimeoutMs: number;
  /** Then for the notifier to have recorded every one of them. */
  notifierTimeoutMs: number;
  signal: AbortSignal;
}

/** What every repetition reports about its jobs. */
export interface ChainRunResult {
  records: ChainRecord[];
  /** Answers other than 202 by status (`0`: no answer). */
  refusedByStatus: Record<string, number>;
  /** Accepted jobs by final status (as read after the waits). */
  byStatus: Record<string, number>;
  /** Jobs that needed more than one attempt of a step. */
  retried: number;
  /** Accepted jobs whose `JobCompleted.v1` was not seen / not recorded by the notifier when the waits ended. */
  notSeen: number;
  notRecorded: number;
}

export interface FixedRateRep extends ChainRunResult {
  pace: PacedRunReport;
}

export interface SaturationRep extends ChainRunResult {
  /** Jobs the batch asked for, and how long the submitting took (first send → last answer), ms. */
  batch: number;
  submitMs: number;
  /** 429s answered while submitting. */
  throttled: number;
  firstSentAt: number;
}

/** Jobs offered at `ratePerSecond` for `durationMs`, at most `maxInFlight` at once, then followed to their end. */
export async function runFixedRate(
  submitter: JobSubmitter,
  db: Pool,
  observer: ArrivalObserver,
  load: { ratePerSecond: number; durationMs: number; maxInFlight: number } & CompletionWaits,
): Promise<FixedRateRep> {
  const sent: Array<{ jobId: string; sentAt: number; answeredAt: number }> = [];
  const refusedByStatus: Record<string, number> = {};
  const pace = await runPaced({
    ...load,
    stopAtWindowEnd: true,
    send: async () => {
      const outcome = await submitter.submit();
      if (outcome.status === 202 && outcome.jobId) sent.push({ jobId: outcome.jobId, sentAt: outcome.sentAt, answeredAt: outcome.answeredAt });
      else count(refusedByStatus, String(outcome.status));
    },
  });
  return { pace, ...(await followJobs(db, observer, sent, refusedByStatus, load)) };
}

/**
 * A batch of `batch` jobs submitted as fast as the api admits them, from `inFlight` loops that
 * each send the next as soon as the last is answered; a 429 makes the loop wait its
 * `Retry-After` (at most `maxRetryWaitMs`) and try again. Submitting stops at `submitWindowMs`
 * even if the batch is not complete. Then every accepted job is followed to its end.
 */
export async function runSaturation(
  submitter: JobSubmitter,
  db: Pool,
  observer: ArrivalObserver,
  load: { batch: number; inFlight: number; submitWindowMs: number; maxRetryWaitMs: number } & CompletionWaits,
): Promise<SaturationRep> {
  const sent: Array<{ jobId: string; sentAt: number; answeredAt: number }> = [];
  const refusedByStatus: Record<string, number> = {};
  let throttled = 0;
  let claimed = 0;
  const firstSentAt = wallNow();
  const windowEnds = Date.now() + load.submitWindowMs;
  const loop = async () => {
    while (claimed < load.batch && Date.now() < windowEnds && !load.signal.aborted) {
      claimed++;
      const outcome = await submitter.submit();
      if (outcome.status === 202 && outcome.jobId) {
        sent.push({ jobId: outcome.jobId, sentAt: outcome.sentAt, answeredAt: outcome.answeredAt });
        continue;
      }
      // Not accepted: the slot goes back to the batch.
      claimed--;
      if (outcome.status === 429) {
        throttled++;
        await delay(Math.min(outcome.retryAfterMs ?? 1000, load.maxRetryWaitMs), undefined, { signal: load.signal }).catch(() => undefined);
      } else {
        count(refusedByStatus, String(outcome.status));
        // A failing api must not be hammered in a tight loop.
        await delay(100, undefined, { signal: load.signal }).catch(() => undefined);
      }
    }
  };
  await Promise.all(Array.from({ length: load.inFlight }, loop));
  const submitMs = sent.length > 0 ? Math.max(...sent.map((s) => s.answeredAt)) - firstSentAt : 0;
  const followed = await followJobs(db, observer, sent, refusedByStatus, load);
  return { ...followed, batch: load.batch, submitMs, throttled, firstSentAt };
}

/** Waits for the jobs' `JobCompleted.v1`, then for the notifier, then reads what the services recorded. */
async function followJobs(
  db: Pool,
  observer: ArrivalObserver,
  sent: ReadonlyArray<{ jobId: string; sentAt: number; answeredAt: number }>,
  refusedByStatus: Record<string, number>,
  waits: CompletionWaits,
): Promise<ChainRunResult> {
  const ids = sent.map((s) => s.jobId);
  const notSeen = await observer.waitForAll(EventTypes.JobCompletedV1, ids, waits.completedTimeoutMs, waits.signal);
  const notRecorded = await waitForNotifier(db, ids, waits.notifierTimeoutMs, waits.signal);
  const timelines = new Map((await readChainTimelines(db, ids)).map((t) => [t.jobId, t]));
  const records: ChainRecord[] = sent.map((s) => ({
    jobId: s.jobId,
    sentAt: s.sentAt,
    answeredAt: s.answeredAt,
    transcodeRequestSeenAt: observer.arrival(EventTypes.TranscodeRequestedV1, s.jobId)?.at ?? null,
    completedSeenAt: observer.arrival(EventTypes.JobCompletedV1, s.jobId)?.at ?? null,
    timeline: timelines.get(s.jobId) ?? null,
  }));
  return {
    records,
    refusedByStatus,
    byStatus: await countByStatus(db, ids),
    retried: [...timelines.values()].filter((t) => t.attempts > 2).length,
    notSeen,
    notRecorded,
  };
}

/** Polls until the notifier has recorded every job's `JobCompleted.v1`; resolves with how many it has not. Its own timestamps are read afterwards, so the polling interval does not enter any figure. */
async function waitForNotifier(db: Pool, jobIds: readonly string[], timeoutMs: number, signal: AbortSignal): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const recorded = jobIds.length === 0 ? 0 : await countNotifierRecorded(db, jobIds);
    if (recorded >= jobIds.length || Date.now() > deadline || signal.aborted) return jobIds.length - recorded;
    await delay(250);
  }
}

function count(counts: Record<string, number>, key: string): void {
  counts[key] = (counts[key] ?? 0) + 1;
}
