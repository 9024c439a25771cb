import type { z } from 'zod';
import { JobLifecycleV1Schema } from './job-lifecycle-events';
import {
  StepCompletedV1Schema,
  StepFailedV1Schema,
  StepRequestedV1Schema,
  StepStartedV1Schema,
} from './step-events';

/**
 * The catalogue of event types and their payload schemas. A type's name carries its version:
 * a breaking change adds `X.v2` beside `X.v1`, never edits `X.v1`, so old messages still
 * parse while consumers migrate.
 */
export const EventTypes = {
  TranscodeRequestedV1: 'TranscodeRequested.v1',
  ThumbnailRequestedV1: 'ThumbnailRequested.v1',
  StepStartedV1: 'StepStarted.v1',
  StepCompletedV1: 'StepCompleted.v1',
  StepFailedV1: 'StepFailed.v1',
  JobStartedV1: 'JobStarted.v1',
  JobCompletedV1: 'JobCompleted.v1',
  JobFailedV1: 'JobFailed.v1',
} as const;

export type EventType = (typeof EventTypes)[keyof typeof EventTypes];

export const EventSchemas = {
  [EventTypes.TranscodeRequestedV1]: StepRequestedV1Schema,
  [EventTypes.ThumbnailRequestedV1]: StepRequestedV1Schema,
  [EventTypes.StepStartedV1]: StepStartedV1Schema,
  [EventTypes.StepCompletedV1]: StepCompletedV1Schema,
  [EventTypes.StepFailedV1]: StepFailedV1Schema,
  [EventTypes.JobStartedV1]: JobLifecycleV1Schema,
  [EventTypes.JobCompletedV1]: JobLifecycleV1Schema,
  [EventTypes.JobFailedV1]: JobLifecycleV1Schema,
} as const satisfies Record<EventType, z.ZodType>;

/** The payload type of event type `T`. */
export type EventPayload<T extends EventType> = z.infer<(typeof EventSchemas)[T]>;

export function isEventType(value: string): value is EventType {
  return Object.prototype.hasOwnProperty.call(EventSchemas, value);
}

/** The aggregate type written on every job event's outbox row. */
export const JOB_AGGREGATE = 'job';
