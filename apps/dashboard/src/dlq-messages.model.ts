import type { DlqMessageView } from '@longhaul/contracts';
import { formatTime } from './display.format.js';

/** Where a dead-lettered message stands: sent back once, waiting for a replay, or unable to be sent back. */
export type DlqMessageState = 'replayed' | 'pending' | 'not-replayable';

/** A replayed message was replayable when it was sent; what it is now matters only to those not sent yet. */
export function dlqMessageState(message: Pick<DlqMessageView, 'replayedAt' | 'notReplayable'>): DlqMessageState {
  if (message.replayedAt) return 'replayed';
  return message.notReplayable ? 'not-replayable' : 'pending';
}

/** What the api answered a Replay click: `202` this click sent the message, `200` it had been replayed before. */
export function replayAnswerText(status: number, message: Pick<DlqMessageView, 'sourceTopic' | 'replayedAt'>): string {
  if (status === 202) return `202 Accepted: sent back to ${message.sourceTopic} through the outbox.`;
  return `200 OK: already replayed${message.replayedAt ? ` at ${formatTime(message.replayedAt)}` : ''}; nothing sent again.`;
}

/**
 * The value as an operator reads it: JSON the way Longhaul's services write it (compact) is
 * indented; anything else is shown exactly as it came, since re-serialising it could change what
 * the operator is judging (spacing, key order of duplicates, digits of numbers past 2^53).
 */
export function displayValue(value: string | null): string {
  if (value === null) return '(no value)';
  try {
    const parsed: unknown = JSON.parse(value);
    if (JSON.stringify(parsed) === value) return JSON.stringify(parsed, null, 2);
  } catch {
    // not JSON: shown as it is
  }
  return value;
}

/** The `dlq.*` headers are the ones the dead-lettering consumer added to the message's own. */
const DLQ_HEADER_PREFIX = 'dlq.';

/** Every header by name: the message's own first, then the `dlq.*` ones the consumer added. */
export function headerEntries(headers: Record<string, string>): Array<[string, string]> {
  const added = (name: string) => (name.startsWith(DLQ_HEADER_PREFIX) ? 1 : 0);
  return Object.entries(headers).sort(([a], [b]) => added(a) - added(b) || a.localeCompare(b));
}
