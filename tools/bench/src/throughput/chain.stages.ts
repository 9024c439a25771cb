// The stages of one job's way through Longhaul, as durations between two recorded instants, and
// their percentiles over a run. Pure: the end-to-end benchmark feeds it what the bench stamped and
// what the services wrote (`chain-timeline.repository.ts`).

import type { ChainTimeline } from './chain-timeline.repository';
import { latencyPercentiles, type LatencyPercentiles } from './latency.percentiles';

/** One job of a run: the bench's own stamps (wall clock, ms) and the services' timeline. */
export interface ChainRecord {
  jobId: string;
  /** Just before the `POST /v1/jobs` was handed to the HTTP client. */
  sentAt: number;
  /** When the 202 arrived. */
  answeredAt: number;
  /** When the bench's consumer got the job's `TranscodeRequested.v1`. */
  transcodeRequestSeenAt: number | null;
  /** When the bench's consumer got the job's `JobCompleted.v1`. */
  completedSeenAt: number | null;
  timeline: ChainTimeline | null;
}

/** A stage: its label in the report and the two instants it lies between. */
export interface ChainStage {
  label: string;
  from: (r: ChainRecord) => number | null | undefined;
  to: (r: ChainRecord) => number | null | undefined;
  /** Not a part of the chain but a view of it, e.g. the bench's own observation; shown indented. */
  aside?: boolean;
  /** A crossing of the relay (commit → Debezium → Kafka → a consumer's handler), a wait in a worker's queue, or a worker running the step. */
  kind?: 'relay' | 'queue' | 'step';
  /** For a relay crossing: the service whose consumer ends it. */
  consumer?: 'transcoder' | 'saga' | 'thumbnailer' | 'notifier';
}

/**
 * The chain in order. Consecutive stages share their instants, so they follow the job from the
 * request to the notifier; the asides show where the bench's observer saw it. The request leg
 * ends at the 202 on the bench's clock while the next starts at the api's transaction (Postgres
 * clock, same kernel): they overlap by the transaction's own time.
 */
export const CHAIN_STAGES: readonly ChainStage[] = [
  { label: 'request → 202 (api: admission, one transaction)', from: (r) => r.sentAt, to: (r) => r.answeredAt },
  {
    label: 'api transaction → transcoder took the request (commit, relay, transcoder consumer)',
    from: (r) => r.timeline?.transcode.dispatched,
    to: (r) => r.timeline?.transcoder.taken,
    kind: 'relay',
    consumer: 'transcoder',
  },
  { label: '202 → TranscodeRequested readable (relay, as the bench saw it)', from: (r) => r.answeredAt, to: (r) => r.transcodeRequestSeenAt, aside: true },
  { label: 'transcoder: queued → claimed (work-queue poll)', from: (r) => r.timeline?.transcoder.taken, to: (r) => r.timeline?.transcoder.started, kind: 'queue' },
  { label: 'transcoder: claimed → finished (0 ms step, finish transaction)', from: (r) => r.timeline?.transcoder.started, to: (r) => r.timeline?.transcoder.finished, kind: 'step' },
  {
    label: 'transcode finished → saga dispatched the thumbnail (relay, saga)',
    from: (r) => r.timeline?.transcoder.finished,
    to: (r) => r.timeline?.thumbnail.dispatched,
    kind: 'relay',
    consumer: 'saga',
  },
  {
    label: 'saga transaction → thumbnailer took the request (commit, relay, thumbnailer consumer)',
    from: (r) => r.timeline?.thumbnail.dispatched,
    to: (r) => r.timeline?.thumbnailer.taken,
    kind: 'relay',
    consumer: 'thumbnailer',
  },
  { label: 'thumbnailer: queued → claimed (work-queue poll)', from: (r) => r.timeline?.thumbnailer.taken, to: (r) => r.timeline?.thumbnailer.started, kind: 'queue' },
  { label: 'thumbnailer: claimed → finished (0 ms step, finish transaction)', from: (r) => r.timeline?.thumbnailer.started, to: (r) => r.timeline?.thumbnailer.finished, kind: 'step' },
  {
    label: 'thumbnail finished → saga completed the job (relay, saga)',
    from: (r) => r.timeline?.thumbnailer.finished,
    to: (r) => r.timeline?.jobFinished,
    kind: 'relay',
    consumer: 'saga',
  },
  {
    label: 'job completed → notifier recorded JobCompleted (commit, relay, notifier consumer)',
    from: (r) => r.timeline?.jobFinished,
    to: (r) => r.timeline?.notifierRecorded,
    kind: 'relay',
    consumer: 'notifier',
  },
  { label: 'job completed → JobCompleted readable (relay, as the bench saw it)', from: (r) => r.timeline?.jobFinished, to: (r) => r.completedSeenAt, aside: true },
];

/** The api's own record of each step (`api.step_attempts`). */
export const API_ATTEMPT_STAGES: readonly ChainStage[] = (['transcode', 'thumbnail'] as const).flatMap((step) => [
  { label: `${step}: dispatched → queued (when its worker queued it, as the StepQueued sent once a request has waited STEP_QUEUED_REPORT_MS says; for a request that started sooner, the start its worker reported)`, from: (r: ChainRecord) => r.timeline?.[step].dispatched, to: (r: ChainRecord) => r.timeline?.[step].queued },
  { label: `${step}: queued → started (StepStarted reached the saga; for a run shorter than STEP_START_REPORT_MS, the start its StepCompleted carried)`, from: (r: ChainRecord) => r.timeline?.[step].queued, to: (r: ChainRecord) => r.timeline?.[step].started },
  { label: `${step}: started → finished (StepCompleted reached the saga)`, from: (r: ChainRecord) => r.timeline?.[step].started, to: (r: ChainRecord) => r.timeline?.[step].finished },
]);

/** Submit → the job's end, two ways: as the bench saw `JobCompleted.v1`, and as the notifier recorded it. */
export const END_TO_END = {
  completedSeen: { label: 'request → JobCompleted readable (bench consumer)', from: (r: ChainRecord) => r.sentAt, to: (r: ChainRecord) => r.completedSeenAt },
  notifierRecorded: { label: 'request → notifier recorded JobCompleted (terminal)', from: (r: ChainRecord) => r.sentAt, to: (r: ChainRecord) => r.timeline?.notifierRecorded },
} satisfies Record<string, ChainStage>;

/** The stage's duration for every record that has both instants, in ms. */
export function stageDurations(records: readonly ChainRecord[], stage: ChainStage): number[] {
  const out: number[] = [];
  for (const record of records) {
    const from = stage.from(record);
    const to = stage.to(record);
    if (from !== null && from !== undefined && to !== null && to !== undefined) out.push(to - from);
  }
  return out;
}

/** The stage's percentiles over `records`, or null when no record has both instants. */
export function stageProfile(records: readonly ChainRecord[], stage: ChainStage): LatencyPercentiles | null {
  const durations = stageDurations(records, stage);
  return durations.length > 0 ? latencyPercentiles(durations) : null;
}

/**
 * The stage's durations, with every record that has its start but not its end counted as never
 * ending (`Infinity`): for the end-to-end figures, where leaving out the jobs that were not done
 * when the wait ran out would make the percentiles look better than the run was.
 */
export function censoredDurations(records: readonly ChainRecord[], stage: ChainStage): number[] {
  const out: number[] = [];
  for (const record of records) {
    const from = stage.from(record);
    if (from === null || from === undefined) continue;
    const to = stage.to(record);
    out.push(to === null || to === undefined ? Number.POSITIVE_INFINITY : to - from);
  }
  return out;
}

/** {@link stageProfile} over {@link censoredDurations}: a percentile past the jobs that ended is `Infinity`. */
export function censoredProfile(records: readonly ChainRecord[], stage: ChainStage): LatencyPercentiles | null {
  const durations = censoredDurations(records, stage);
  return durations.length > 0 ? latencyPercentiles(durations) : null;
}

/**
 * Completions per second of a batch: `count` jobs from the first send to the last completion
 * (ramp-up and drain included, as a client with that batch would see it). Zero without both.
 */
export function batchRate(count: number, firstSentAt: number, lastDoneAt: number): number {
  const spanS = (lastDoneAt - firstSentAt) / 1000;
  return count > 0 && spanS > 0 ? count / spanS : 0;
}

/**
 * Completions per second in the middle of a batch: the jobs completed between the 10th and 90th
 * percentile of completion times, over that interval — the pipeline's steady rate, without the
 * ramp-up while the first jobs travel and the tail of the last. Zero with fewer than ten.
 */
export function steadyRate(doneTimes: readonly number[]): number {
  if (doneTimes.length < 10) return 0;
  const sorted = [...doneTimes].sort((a, b) => a - b);
  const lo = Math.floor(sorted.length * 0.1);
  const hi = Math.ceil(sorted.length * 0.9) - 1;
  const spanS = (sorted[hi]! - sorted[lo]!) / 1000;
  return spanS > 0 ? (hi - lo) / spanS : 0;
}
