/**
 * `longhaul events ID`: prints a job's event stream (`GET /v1/jobs/{id}/events`) as it comes,
 * reconnecting like `submit --wait`, until the job reaches a terminal status.
 *
 * Unlike the other commands it writes while it runs. With `--json` it still prints one JSON
 * document: an array, one element per event written as it arrives, closed when the stream ends
 * (or is interrupted), so a streaming JSON reader sees events live and `jq` sees a plain array.
 */
import type { JobView } from './api.types.mts';
import { TERMINAL_JOB_STATUSES } from './api.types.mts';
import { ExitCodes, isAbort } from './cli.errors.mts';
import type { CommandDefinition } from './command.types.mts';
import { followEventStream } from './event-stream.follower.mts';
import { jobPath } from './job.watcher.mts';
import { stringOption } from './option.readers.mts';
import type { SseEvent } from './sse.parser.mts';
import { formatDuration } from './units.format.mts';

export const eventsCommand: CommandDefinition = {
  words: ['events'],
  operands: ['ID'],
  options: { 'last-event-id': { type: 'string' } },
  summary: "a job's events as they happen, until it ends",
  help: [
    'One line per event: id, kind, data. --json prints one array of { id, event, data }.',
    '',
    'options:',
    '  --last-event-id ID   start after this event instead of at the beginning',
  ].join('\n'),
  async run(context, input) {
    const jobId = input.operands[0] ?? '';
    const out = context.io.stdout;
    let printed = 0;
    let failed = false;
    try {
      await followEventStream({
        url: context.client.resolve(`${jobPath(jobId)}/events`),
        headers: context.client.authHeaders(),
        lastEventId: stringOption(input.values, 'last-event-id'),
        signal: context.io.signal,
        onEvent(event) {
          out.write(context.json ? `${printed === 0 ? '[\n' : ',\n'}  ${JSON.stringify(eventDocument(event))}` : `${eventLine(event)}\n`);
          printed++;
          return isTerminal(event);
        },
        onReconnect: (notice) =>
          context.io.stderr.write(`event stream: ${notice.reason}; reconnecting in ${formatDuration(notice.delayMs)}\n`),
        beforeReconnect: async () => TERMINAL_JOB_STATUSES.includes((await context.client.get<JobView>(jobPath(jobId))).body.status),
      });
      return { exitCode: ExitCodes.ok };
    } catch (error) {
      if (isAbort(error) || context.io.signal?.aborted) return { exitCode: ExitCodes.interrupted };
      failed = true;
      throw error;
    } finally {
      // Before any event, an error leaves stdout to the error document `runCli` prints instead.
      if (context.json && printed > 0) out.write('\n]\n');
      else if (context.json && !failed) out.write('[]\n');
    }
  },
};

/** `{ id, event, data }`, with `data` parsed when it is JSON. */
export function eventDocument(event: SseEvent): { id: string; event: string; data: unknown } {
  let data: unknown = event.data;
  try {
    data = JSON.parse(event.data);
  } catch {
    // Kept as the string the server sent.
  }
  return { id: event.id, event: event.type, data };
}

/** `12  step.progress  {"jobId":…}` */
export function eventLine(event: SseEvent): string {
  return `${event.id || '-'}  ${event.type}  ${event.data.replaceAll('\n', '\\n')}`;
}

function isTerminal(event: SseEvent): boolean {
  if (event.type !== 'job.status') return false;
  const data = eventDocument(event).data as { status?: unknown } | null;
  return typeof data?.status === 'string' && TERMINAL_JOB_STATUSES.includes(data.status);
}
