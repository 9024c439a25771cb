/**
 * Dead letters for people: the groups first (what fails, how often), then the dead letters
 * themselves, newest first, and how to replay one.
 */
import type { DeadLetterListView, DeadLetterView } from './api.types.mts';
import { renderTable, truncate } from './table.format.mts';

const MESSAGE_WIDTH = 60;

export function formatDeadLetterList(list: DeadLetterListView): string {
  if (list.items.length === 0 && list.groups.length === 0) return 'no dead letters\n';
  let text = '';
  if (list.groups.length > 0) {
    text += `groups\n${renderTable(
      ['FINGERPRINT', 'STEP', 'CODE', 'COUNT', 'LAST', 'MESSAGE'],
      list.groups.map((group) => [
        group.fingerprint,
        group.step,
        group.errorCode,
        String(group.count),
        group.lastAt,
        truncate(group.sampleMessage, MESSAGE_WIDTH),
      ]),
    )}`;
  }
  if (list.items.length > 0) {
    text += `${text ? '\n' : ''}dead letters\n${renderTable(
      ['ID', 'JOB', 'STEP', 'CODE', 'CREATED', 'REPLAYED'],
      list.items.map((item) => [item.id, item.jobId, item.step, item.error.code, item.createdAt, item.replayedAt ?? '-']),
    )}`;
    const first = list.items.find((item) => item.replayedAt === null);
    if (first) text += `replay one with: longhaul dead-letters replay ${first.id}\n`;
  }
  return text;
}

/** `started`: this call started the replay (202); otherwise it had been replayed before (200). */
export function formatReplay(deadLetter: DeadLetterView, started: boolean): string {
  const attempt = deadLetter.replayAttempt === null ? '' : `, attempt ${deadLetter.replayAttempt}`;
  const head = started
    ? `replay started: ${deadLetter.step} of job ${deadLetter.jobId}${attempt}\n`
    : `already replayed at ${deadLetter.replayedAt ?? '?'} (${deadLetter.step} of job ${deadLetter.jobId}${attempt}); nothing changed\n`;
  return `${head}follow it: longhaul status ${deadLetter.jobId}\n`;
}
