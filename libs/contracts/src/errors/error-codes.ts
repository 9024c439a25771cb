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
  /** The path exists, but not for the request's method (405, with `Allow`). */
  methodNotAllowed: 'method_not_allowed',
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
  /** A recorded dead-lettered message the outbox cannot carry back (no event id, type or key; not JSON). */
  messageNotReplayable: 'message_not_replayable',
  /** The job is finished and cannot change (e.g. cancel of a completed job). */
  jobFinished: 'job_finished',
  /** Admission control refused new work: a lane's queue or consumer lag is over its limit. */
  overloaded: 'overloaded',
  configInvalid: 'config_invalid',
  internal: 'internal_error',
  /** A blob key that is not a relative path of `[A-Za-z0-9._-]` segments (it could escape the store). */
  blobKeyInvalid: 'blob_key_invalid',
  /** No blob is stored at the key. */
  blobNotFound: 'blob_not_found',
  /** The input video is missing or cannot be decoded; another attempt cannot help. */
  mediaInvalid: 'media_invalid',
  /** A job names an upload (`source.uploadId`) that does not exist. */
  uploadNotFound: 'upload_not_found',
  /** A source URL could not be downloaded: no connection, an HTTP error status, too many redirects, too slow. */
  sourceUnreachable: 'source_unreachable',
  /** A source URL's host resolves to a private, loopback, link-local or other non-public address (also after a redirect). */
  sourceAddressForbidden: 'source_address_forbidden',
  /** A source URL's body is larger than the upload limit. */
  sourceTooLarge: 'source_too_large',
  /** A source URL (or a redirect) is not http or https. */
  sourceInvalidScheme: 'source_invalid_scheme',
  /** Media in a format that is refused on purpose: playlists and lists that reference other files (HLS, ffconcat, DASH, SDP). */
  mediaFormatRefused: 'media_format_refused',
  /** The input video is 0 bytes long. */
  mediaEmpty: 'media_empty',
  /** The input is no media file ffprobe can read: not a container, truncated, or damaged. */
  mediaUnreadable: 'media_unreadable',
  /** The input has no video stream (e.g. audio only; cover art does not count). */
  mediaNoVideo: 'media_no_video',
  /** A webhook URL that may not be called: not https (unless allowed), over 2 KiB, or its host is (or resolves to) a non-public address. */
  webhookUrlForbidden: 'webhook_url_forbidden',
  /** A webhook receiver did not answer within the delivery timeout. */
  webhookTimeout: 'webhook_timeout',
  /** No connection to a webhook receiver (refused, reset, DNS failure). */
  webhookUnreachable: 'webhook_unreachable',
  /** A webhook receiver answered with a status that is not 2xx. */
  webhookRejected: 'webhook_rejected',
  /** A webhook receiver answered with a redirect; redirects are never followed. */
  webhookRedirected: 'webhook_redirected',
  /** A webhook receiver's host resolved, when connecting, to a non-public address. */
  webhookAddressForbidden: 'webhook_address_forbidden',
  /** The mail server refused the message or a recipient for good (SMTP 5xx). */
  emailRejected: 'email_rejected',
  /** The mail server could not be reached or deferred the message (SMTP 4xx, connection errors). */
  emailUnavailable: 'email_unavailable',
  /** No API key, a malformed one, or one that is unknown or revoked (401). */
  unauthenticated: 'unauthenticated',
  /** The API key is valid but lacks the scope the route needs (403). */
  insufficientScope: 'insufficient_scope',
  /** A tenant already holds as many unrevoked API keys as it may create over HTTP (409). */
  apiKeyLimitReached: 'api_key_limit_reached',
  /** The API key to rotate is revoked or expired, or the key to change is revoked (409). */
  apiKeyNotActive: 'api_key_not_active',
  /** The API key sent more requests than its rate limit allows (429). */
  rateLimited: 'rate_limited',
  /** A retention pass could not delete old outbox or inbox rows; it is tried again next interval. */
  retentionPruneFailed: 'retention_prune_failed',
  /** The relay's replication slot is missing or inactive, so no outbox row can be known to be relayed. */
  relaySlotUnavailable: 'relay_slot_unavailable',
  /** Kafka still holds messages older than the inbox retention, so their inbox rows are kept. */
  inboxRetentionUnsafe: 'inbox_retention_unsafe',
} as const;

export type ErrorCode = (typeof ErrorCodes)[keyof typeof ErrorCodes];

/** The form of every stable error code (`step_timed_out`): what a filter by error code may hold. */
export const ERROR_CODE_PATTERN = /^[a-z0-9_]{1,64}$/;
