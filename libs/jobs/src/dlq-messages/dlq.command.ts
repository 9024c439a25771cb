import { CommandUsageError, runOperatorCommand } from '@longhaul/platform';
import { DlqMessageIdSchema, ERROR_CODE_PATTERN, TOPIC_NAME_PATTERN, type DlqMessageView } from '@longhaul/contracts';
import type { DlqMessageFilter } from './dlq-message.repository';
import type { DlqMessagesService, DlqReplayResult } from './dlq-messages.service';

export const DLQ_USAGE = `Usage: dlq <command> [options]

The messages consumers dead-lettered (copied to <topic>.dlq because they could not be decoded,
or their handler kept failing), as the api recorded them.

Commands:
  list [--topic TOPIC] [--code CODE] [--pending] [--limit N]
                     Newest first. TOPIC is the topic they came from (job.events) or their
                     dead-letter topic (job.events.dlq); CODE a dlq.error.code such as
                     handler_failed; --pending leaves out those replayed. Default limit 50.
  show ID            One message with its headers and value.
  replay ID...       Sends each message back to the topic it came from, once: under its own
                     event id, so consumers that handled it before skip it. A message replayed
                     before is not sent again; one that cannot be replayed says why.
  delete ID...       Deletes the records (Kafka's copies expire with the topic).

Options:
  --json             Machine-readable output.
  -h, --help         This text.

Exit codes: 0 done; 1 a message was not found or could not be replayed; 2 a usage mistake.`;

/** A usage mistake: the command prints it with the usage text and exits 2. */
export class DlqUsageError extends CommandUsageError {}

/** What the command needs of the recorded messages (the service; a test passes a stand-in for usage checks). */
export type DlqMessages = Pick<DlqMessagesService, 'list' | 'get' | 'replay' | 'delete'>;

function ids(rest: string[], command: string): string[] {
  if (rest.length === 0) throw new DlqUsageError(`${command} needs at least one message id`);
  const bad = rest.find((id) => !DlqMessageIdSchema.safeParse(id).success);
  if (bad !== undefined) throw new DlqUsageError(`'${bad}' is not a message id (a positive whole number, as list shows)`);
  return rest;
}

function parseLimit(text: string | undefined): number {
  if (text === undefined) return 50;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1 || value > 1000) throw new DlqUsageError(`--limit takes a whole number from 1 to 1000; got '${text}'`);
  return value;
}

function summary(message: DlqMessageView): string {
  const state = message.replayedAt ? `replayed ${message.replayedAt}` : message.notReplayable ? `not replayable: ${message.notReplayable}` : 'pending';
  return `${message.id}  ${message.deadLetteredAt}  ${message.sourceTopic}  ${message.errorCode ?? '(no code)'}  ${message.eventType ?? '(no type)'}  key=${message.key ?? '-'}  event=${message.eventId ?? '-'}  ${state}`;
}

function details(message: DlqMessageView): string {
  const headers = Object.entries(message.headers).map(([name, value]) => `  ${name}: ${value}`);
  return [
    summary(message),
    `dead-letter topic ${message.dlqTopic}, partition ${message.dlqPartition}, offset ${message.dlqOffset}; came from ${message.source ?? message.sourceTopic}`,
    `error: ${message.errorMessage ?? '(none given)'}`,
    `trace: ${message.traceId ?? '(none)'}`,
    'headers:',
    ...headers,
    'value:',
    message.value ?? '(none)',
  ].join('\n');
}

function replayLine(result: DlqReplayResult): string {
  switch (result.outcome) {
    case 'replayed':
      return `${result.message.id}  replayed to ${result.message.sourceTopic} (event ${result.message.eventId})`;
    case 'already-replayed':
      return `${result.message.id}  already replayed ${result.message.replayedAt}; not sent again`;
    case 'not-replayable':
      return `${result.message.id}  not replayable: ${result.message.notReplayable}`;
    case 'not-found':
      return `${result.id}  no such message`;
  }
}

/**
 * The operator's dead-lettered messages command (`npm run dlq -- …`, `nx run api:dlq`), on the
 * api's database. `messages` opens it, called only once the arguments are understood. Returns the
 * exit code; writes results to `out` and problems to `err`.
 */
export function runDlqCommand(argv: string[], messages: () => Promise<DlqMessages>, out: (line: string) => void, err: (line: string) => void): Promise<number> {
  return runOperatorCommand(argv, {
    usage: DLQ_USAGE,
    options: {
      topic: { type: 'string' },
      code: { type: 'string' },
      pending: { type: 'boolean', default: false },
      limit: { type: 'string' },
    },
    run: async ({ command, rest, values, print }) => {
      switch (command) {
        case 'list': {
          if (rest.length) throw new DlqUsageError(`unexpected argument '${rest[0]}'`);
          const topic = values['topic'] as string | undefined;
          const code = values['code'] as string | undefined;
          if (topic !== undefined && !TOPIC_NAME_PATTERN.test(topic)) throw new DlqUsageError(`--topic takes a topic name; got '${topic}'`);
          if (code !== undefined && !ERROR_CODE_PATTERN.test(code)) throw new DlqUsageError(`--code takes an error code such as handler_failed; got '${code}'`);
          const filter: DlqMessageFilter = { topic, errorCode: code, pending: values['pending'] === true, limit: parseLimit(values['limit'] as string | undefined) };
          const items = await (await messages()).list(filter);
          print({ items }, items.length ? items.map(summary).join('\n') : 'no dead-lettered messages');
          return 0;
        }
        case 'show': {
          if (rest.length !== 1) throw new DlqUsageError('show needs exactly one message id');
          const [id] = ids(rest, 'show');
          const message = await (await messages()).get(id!);
          if (!message) {
            err(`no message ${id}`);
            return 1;
          }
          print(message, details(message));
          return 0;
        }
        case 'replay': {
          const wanted = ids(rest, 'replay');
          const service = await messages();
          const results: DlqReplayResult[] = [];
          // One at a time, in the order given: each is its own transaction.
          for (const id of wanted) results.push(await service.replay(id));
          print({ results }, results.map(replayLine).join('\n'));
          return results.every((r) => r.outcome === 'replayed' || r.outcome === 'already-replayed') ? 0 : 1;
        }
        case 'delete': {
          const wanted = ids(rest, 'delete');
          const deleted = await (await messages()).delete(wanted);
          const missing = wanted.filter((id) => !deleted.includes(id));
          print({ deleted, missing }, [...deleted.map((id) => `${id}  deleted`), ...missing.map((id) => `${id}  no such message`)].join('\n'));
          return missing.length === 0 ? 0 : 1;
        }
        default:
          throw new DlqUsageError(`unknown command '${command}'`);
      }
    },
  }, out, err);
}
