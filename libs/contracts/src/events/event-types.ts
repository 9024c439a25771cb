import type { z } from 'zod';
import { DeliveryUpdatedV1Schema } from './delivery-events';
import { CancelJobV1Schema } from './job-control-events';
import { JobLifecycleV1Schema, StepTransitionedV1Schema } from './job-lifecycle-events';
import {
  StepCompletedV1Schema,
  StepDemotedV1Schema,
  StepFailedV1Schema,
  StepProgressV1Schema,
  StepQueuedV1Schema,
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
  StepQueuedV1: 'StepQueued.v1',
  StepStartedV1: 'StepStarted.v1',
  StepProgressV1: 'StepProgress.v1',
  StepCompletedV1: 'StepCompleted.v1',
  StepFailedV1: 'StepFailed.v1',
  StepDemotedV1: 'StepDemoted.v1',
  JobStartedV1: 'JobStarted.v1',
  JobCompletedV1: 'JobCompleted.v1',
  JobFailedV1: 'JobFailed.v1',
  JobCancelledV1: 'JobCancelled.v1',
  JobReopenedV1: 'JobReopened.v1',
  StepTransitionedV1: 'StepTransitioned.v1',
  CancelJobV1: 'CancelJob.v1',
  DeliveryUpdatedV1: 'DeliveryUpdated.v1',
} as const;

export type EventType = (typeof EventTypes)[keyof typeof EventTypes];

export const EventSchemas = {
  [EventTypes.TranscodeRequestedV1]: StepRequestedV1Schema,
  [EventTypes.ThumbnailRequestedV1]: StepRequestedV1Schema,
  [EventTypes.StepQueuedV1]: StepQueuedV1Schema,
  [EventTypes.StepStartedV1]: StepStartedV1Schema,
  [EventTypes.StepProgressV1]: StepProgressV1Schema,
  [EventTypes.StepCompletedV1]: StepCompletedV1Schema,
  [EventTypes.StepFailedV1]: StepFailedV1Schema,
  [EventTypes.StepDemotedV1]: StepDemotedV1Schema,
  [EventTypes.JobStartedV1]: JobLifecycleV1Schema,
  [EventTypes.JobCompletedV1]: JobLifecycleV1Schema,
  [EventTypes.JobFailedV1]: JobLifecycleV1Schema,
  [EventTypes.JobCancelledV1]: JobLifecycleV1Schema,
  [EventTypes.JobReopenedV1]: JobLifecycleV1Schema,
  [EventTypes.StepTransitionedV1]: StepTransitionedV1Schema,
  [EventTypes.CancelJobV1]: CancelJobV1Schema,
  [EventTypes.DeliveryUpdatedV1]: DeliveryUpdatedV1Schema,
} as const satisfies Record<EventType, z.ZodType>;

/** The payload type of event type `T`. */
export type EventPayload<T extends EventType> = z.infer<(typeof EventSchemas)[T]>;

export function isEventType(value: string): value is EventType {
  return Object.prototype.hasOwnProperty.call(EventSchemas, value);
}

/** The aggregate type written on every job event's outbox row. */
export const JOB_AGGREGATE = 'job';
