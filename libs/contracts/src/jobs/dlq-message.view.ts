/**
 * A message a consumer dead-lettered (copied to `<topic>.dlq` because it could not be decoded or
 * its handler kept failing), as the api recorded it: `GET /v1/dlq-messages` and the operator's
 * `dlq` command show it.
 */
export interface DlqMessageView {
  /** The record's id: a positive whole number, as text. */
  id: string;
  dlqTopic: string;
  dlqPartition: number;
  /** Its offset in the dead-letter topic, as text (a 64-bit number). */
  dlqOffset: string;
  /** The topic it was read from, to which a replay sends it back. */
  sourceTopic: string;
  /** `topic/partition/offset` it had there (its `dlq.source` header). */
  source: string | null;
  /** Why it was dead-lettered (`dlq.error.code`, e.g. `handler_failed`). */
  errorCode: string | null;
  errorMessage: string | null;
  eventId: string | null;
  eventType: string | null;
  /** The message's key: the job id for every event Longhaul sends. */
  key: string | null;
  /** Every header, the `dlq.*` ones too, as text. */
  headers: Record<string, string>;
  /** The value as UTF-8 text; null when there was none. */
  value: string | null;
  /** The trace of the message (its `traceparent` header), to look up in Jaeger. */
  traceId: string | null;
  deadLetteredAt: string;
  recordedAt: string;
  /** Set once it was replayed; a second replay sends nothing. */
  replayedAt: string | null;
  /** Why a replay cannot send it back; null when it can. */
  notReplayable: string | null;
}

/** `GET /v1/dlq-messages`. */
export interface DlqMessageListView {
  items: DlqMessageView[];
}
