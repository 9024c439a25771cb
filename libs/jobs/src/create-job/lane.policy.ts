import type { EventType, JobOutputs, Lane, StepName } from '@longhaul/contracts';
import { EventTypes, Renditions, Topics } from '@longhaul/contracts';

/** How the lane of a new job is chosen. */
export interface LanePolicyOptions {
  /** Media duration assumed while it is unknown (before the input was probed). @defaultValue 60 */
  assumedDurationSeconds: number;
  /** Largest estimated cost that still goes to the fast lane. @defaultValue 1800 */
  fastLaneMaxCost: number;
}

export const DEFAULT_LANE_POLICY: LanePolicyOptions = { assumedDurationSeconds: 60, fastLaneMaxCost: 1800 };

/** Relative encoding cost per second of media, by rendition (pixels per frame, roughly halved per rung). */
const RENDITION_WEIGHT: Record<(typeof Renditions)[number], number> = { '1080p': 4, '720p': 2, '480p': 1, '360p': 0.5 };

/**
 * The estimated cost of a job: seconds of media × the weight of every rendition it asks for,
 * plus a little per thumbnail. A unit is about one second of 480p encoding.
 */
export function estimateCost(outputs: JobOutputs, durationSeconds: number | null, options: LanePolicyOptions = DEFAULT_LANE_POLICY): number {
  const duration = durationSeconds ?? options.assumedDurationSeconds;
  const renditions = outputs.renditions ?? [...Renditions];
  const weight = renditions.reduce((sum, r) => sum + RENDITION_WEIGHT[r], 0);
  return duration * weight + (outputs.thumbnails?.count ?? 5) * 0.5;
}

/** Which lane a new job takes: cheap jobs go fast, expensive ones slow, so short work never waits behind long work. */
export function chooseLane(outputs: JobOutputs, durationSeconds: number | null, options: LanePolicyOptions = DEFAULT_LANE_POLICY): Lane {
  return estimateCost(outputs, durationSeconds, options) <= options.fastLaneMaxCost ? 'fast' : 'slow';
}

/**
 * The lane a step of a job in `jobLane` runs in. Only transcoding is split into lanes; the
 * thumbnail step is short and has one topic and one queue, which counts as the fast lane.
 */
export function laneOfStep(step: StepName, jobLane: Lane): Lane {
  return step === 'transcode' ? jobLane : 'fast';
}

/** The transcode request topic of a lane. */
export function transcodeTopicFor(lane: Lane): string {
  return lane === 'slow' ? Topics.transcodeRequestsSlow : Topics.transcodeRequestsFast;
}

/** Where the request for one step of a job in `lane` goes, and as which event type. */
export function stepRequestRoute(step: StepName, lane: Lane): { topic: string; type: EventType } {
  return step === 'transcode'
    ? { topic: transcodeTopicFor(lane), type: EventTypes.TranscodeRequestedV1 }
    : { topic: Topics.thumbnailRequests, type: EventTypes.ThumbnailRequestedV1 };
}
