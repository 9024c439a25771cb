import type { CreateJobRequest, EventType, Lane, StepName } from '@longhaul/contracts';
import { EventTypes, Topics } from '@longhaul/contracts';

/**
 * Which lane a new job takes. Without probing the input there is no cost estimate yet, so
 * every job starts in the fast lane; the estimate-based choice replaces this function.
 */
export function chooseLane(_request: CreateJobRequest): Lane {
  return 'fast';
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
