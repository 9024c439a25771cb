/**
 * `longhaul dlq-messages show ID`: `GET /v1/dlq-messages/{id}`: one dead-lettered message, with
 * why it was dead-lettered, where it came from, and its headers and value.
 */
import type { DlqMessageView } from './api.types.mts';
import { ExitCodes } from './cli.errors.mts';
import type { CommandDefinition } from './command.types.mts';
import { formatDlqMessage } from './dlq-message.format.mts';
import { dlqMessagePath } from './dlq-message.path.mts';

export const dlqMessageShowCommand: CommandDefinition = {
  words: ['dlq-messages', 'show'],
  operands: ['ID'],
  options: {},
  summary: 'a dead-lettered message, with its headers and value',
  help: 'The value is printed as it was recorded; --json gives the whole record, the value as one string.',
  async run(context, input) {
    const message = (await context.client.get<DlqMessageView>(dlqMessagePath(input.operands[0] ?? ''))).body;
    return { exitCode: ExitCodes.ok, document: message, text: formatDlqMessage(message) };
  },
};
