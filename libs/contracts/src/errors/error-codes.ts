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
  configInvalid: 'config_invalid',
  internal: 'internal_error',
} as const;

export type ErrorCode = (typeof ErrorCodes)[keyof typeof ErrorCodes];
