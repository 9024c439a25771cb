/**
 * Dead-lettered messages for people: a table for the list, every field with the headers and
 * value for one, and how a replay or a delete went.
 *
 * A message is dead-lettered because something about it was wrong, so its text may hold
 * anything: it goes through `printable`, which shows control characters escaped (`\u001b`).
 */
import type { DlqMessageListView, DlqMessageView } from './api.types.mts';
import { labelled, printable } from './printable-text.format.mts';
import { shellQuote } from './shell.quote.mts';
import { renderTable, truncate } from './table.format.mts';

const ERROR_WIDTH = 60;

export function formatDlqMessageList(list: DlqMessageListView): string {
  if (list.items.length === 0) return 'no dead-lettered messages\n';
  let text = renderTable(
    ['ID', 'TOPIC', 'CODE', 'TYPE', 'KEY', 'DEAD-LETTERED', 'REPLAYED', 'ERROR'],
    list.items.map((message) => [
      ...[
        message.id,
        message.sourceTopic,
        message.errorCode ?? '-',
        message.eventType ?? '-',
        message.key ?? '-',
        message.deadLetteredAt,
        message.replayedAt ?? (message.notReplayable ? 'not replayable' : '-'),
      ].map((cell) => printable(cell, false)),
      // Cut after escaping, so that the escapes count towards the width.
      truncate(printable(message.errorMessage ?? '', false), ERROR_WIDTH),
    ]),
  );
  text += `show one with: longhaul dlq-messages show ${list.items[0]?.id}\n`;
  const replayable = list.items.find((message) => message.replayedAt === null && message.notReplayable === null);
  if (replayable) text += `replay one with: longhaul dlq-messages replay ${replayable.id}\n`;
  return text;
}

/** `dlq-messages show`: the record, then its headers, then its value as recorded. */
export function formatDlqMessage(message: DlqMessageView): string {
  const fields: [string, string | null][] = [
    ['message', message.id],
    ['topic', message.source ? `${message.sourceTopic} (from ${message.source})` : message.sourceTopic],
    ['dead letter', `${message.dlqTopic}, partition ${message.dlqPartition}, offset ${message.dlqOffset}`],
    ['error', [message.errorCode, message.errorMessage].filter((part) => part !== null).join(': ') || null],
    ['event', [message.eventType, message.eventId].filter((part) => part !== null).join(' ') || null],
    ['key', message.key],
    ['trace', message.traceId],
    ['dead-lettered', message.deadLetteredAt],
    ['recorded', message.recordedAt],
    ['replay', replayState(message)],
  ];
  let text = labelled(fields.filter((field): field is [string, string] => field[1] !== null), '');
  const headers = Object.entries(message.headers);
  text += headers.length > 0 ? `\nheaders\n${labelled(headers, '  ')}` : '\nheaders  none\n';
  // As recorded, not re-indented: parsing JSON to indent it would round 64-bit numbers and hide
  // the very bytes that may have got the message dead-lettered.
  text += message.value === null ? '\nvalue  none\n' : `\nvalue\n${printable(message.value, true)}\n`;
  return text;
}

/** `sent`: this call sent it (202); otherwise it had been replayed before (200). */
export function formatDlqReplay(message: DlqMessageView, sent: boolean): string {
  const what = printable(`message ${message.id} (${message.eventType ?? 'no type'} of job ${message.key ?? '?'})`, false);
  const head = sent
    ? `sent ${what} back to ${message.sourceTopic}\n`
    : `already replayed at ${message.replayedAt ?? '?'}: ${what}; nothing sent\n`;
  return message.key === null ? head : `${head}follow the job: longhaul status ${shellQuote(printable(message.key, false))}\n`;
}

export function formatDlqDeleted(id: string): string {
  return `deleted dead-lettered message ${id}\n`;
}

function replayState(message: DlqMessageView): string {
  if (message.replayedAt !== null) return `replayed at ${message.replayedAt}`;
  if (message.notReplayable !== null) return `not replayable: ${message.notReplayable}`;
  return 'not replayed yet';
}
