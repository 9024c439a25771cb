import type { CreateJobRequest, Lane } from '@longhaul/contracts';
import { Topics } from '@longhaul/contracts';

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
