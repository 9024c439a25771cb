/**
 * Span attribute and span names, in one namespaced list so dashboards and queries can rely on
 * them. Never rename one; add a new one.
 */
export const SpanAttributes = {
  jobId: 'longhaul.job.id',
  jobType: 'longhaul.job.type',
  step: 'longhaul.step.name',
  attempt: 'longhaul.step.attempt',
  eventId: 'longhaul.event.id',
  eventType: 'longhaul.event.type',
  worker: 'longhaul.worker.id',
  duplicate: 'longhaul.inbox.duplicate',
  /** Events of the consumer transaction this one was handled in (1 when handled alone). */
  batchSize: 'longhaul.consumer.batch_size',
  /** The event's batch rolled back, so the event was handled again on its own (another span). */
  batchRolledBack: 'longhaul.consumer.batch_rolled_back',
  deliveryId: 'longhaul.delivery.id',
  deliveryChannel: 'longhaul.delivery.channel',
  deliveryAttempt: 'longhaul.delivery.attempt',
  deliveryOutcome: 'longhaul.delivery.outcome',
} as const;

export const SpanNames = {
  consume: (topic: string) => `${topic} process`,
  stepRun: (step: string) => `step ${step}`,
  deliver: (channel: string) => `deliver ${channel}`,
  dispatch: (step: string) => `dispatch ${step}`,
} as const;
