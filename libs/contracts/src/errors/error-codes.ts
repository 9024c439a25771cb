/**
 * Stable error codes. They cross process boundaries (in events, in problem+json bodies, in
 * dead-letter headers), so decisions read the code, never `instanceof`. Never rename one.
 */
export const ErrorCodes = {
  validationFailed: 'validation_failed',
  malformedJson: 'malformed_json',
  unsupportedMediaType: 'unsupported_media_type',
  payloadTooLarge: 'payload_too_large',
  notFound: 'not_found',
  malformedId: 'malformed_id',
  idempotencyKeyReused: 'idempotency_key_reused',
  idempotencyKeyInvalid: 'idempotency_key_invalid',
  messageUnparseable: 'message_unparseable',
  messageSchemaInvalid: 'message_schema_invalid',
  messageTypeUnknown: 'message_type_unknown',
  stepFailed: 'step_failed',
  stepTimedOut: 'step_timed_out',
  /** A fast-lane attempt passed the lane's budget; it moves to the slow lane (not a failure). */
  stepOverBudget: 'step_over_budget',
  /** The job was cancelled while the attempt ran. */
  stepCancelled: 'step_cancelled',
  /** The watchdog found an attempt silent past its limit (lost message, vanished worker). */
  stepLost: 'step_lost',
  /** A simulated step failed on purpose (simulated step mode only). */
  simulatedFailure: 'simulated_failure',
  /** A consumer's handler kept failing on one message while the database was reachable. */
  handlerFailed: 'handler_failed',
  /** The job is finished and cannot change (e.g. cancel of a completed job). */
  jobFinished: 'job_finished',
  /** Admission control refused new work: a lane's queue or consumer lag is over its limit. */
  overloaded: 'overloaded',
  configInvalid: 'config_invalid',
  internal: 'internal_error',
} as const;

export type ErrorCode = (typeof ErrorCodes)[keyof typeof ErrorCodes];
