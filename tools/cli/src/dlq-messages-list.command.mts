/**
 * `longhaul dlq-messages list`: `GET /v1/dlq-messages`: the messages Kafka consumers copied to a
 * `<topic>.dlq` topic, as the api recorded them, newest first.
 */
import type { DlqMessageListView } from './api.types.mts';
import { ExitCodes } from './cli.errors.mts';
import type { CommandDefinition } from './command.types.mts';
import { formatDlqMessageList } from './dlq-message.format.mts';
import { flagOption, positiveIntOption, stringOption } from './option.readers.mts';

export const dlqMessagesListCommand: CommandDefinition = {
  words: ['dlq-messages', 'list'],
  operands: [],
  options: {
    topic: { type: 'string' },
    'error-code': { type: 'string' },
    pending: { type: 'boolean' },
    limit: { type: 'string' },
  },
  summary: 'dead-lettered Kafka messages, newest first',
  help: [
    'options:',
    '  --topic T       the topic they came from (job.events) or their dead-letter topic (job.events.dlq)',
    '  --error-code C  why they were dead-lettered, e.g. handler_failed',
    '  --pending       only those not replayed yet',
    '  --limit N       at most N messages (api default 50, at most 200)',
  ].join('\n'),
  async run(context, input) {
    const list = (
      await context.client.get<DlqMessageListView>('/v1/dlq-messages', {
        topic: stringOption(input.values, 'topic'),
        errorCode: stringOption(input.values, 'error-code'),
        // Left out rather than `false`: the api lists every message either way.
        pending: flagOption(input.values, 'pending') ? 'true' : undefined,
        limit: positiveIntOption(input.values, 'limit'),
      })
    ).body;
    return { exitCode: ExitCodes.ok, document: list, text: formatDlqMessageList(list) };
  },
};
