/**
 * `longhaul dlq-messages delete ID`: `DELETE /v1/dlq-messages/{id}`: forgets the api's record of
 * a dead-lettered message. Kafka's copy stays until the dead-letter topic's retention drops it.
 */
import { ExitCodes } from './cli.errors.mts';
import type { CommandDefinition } from './command.types.mts';
import { formatDlqDeleted } from './dlq-message.format.mts';
import { dlqMessagePath } from './dlq-message.path.mts';

export const dlqMessageDeleteCommand: CommandDefinition = {
  words: ['dlq-messages', 'delete'],
  operands: ['ID'],
  options: {},
  summary: "delete the api's record of a dead-lettered message",
  help: "Kafka's copy in the dead-letter topic expires with the topic; --json gives { id, deleted }.",
  async run(context, input) {
    const id = input.operands[0] ?? '';
    // 204 has no body: what was deleted is known from the request alone.
    await context.client.delete<undefined>(dlqMessagePath(id));
    return { exitCode: ExitCodes.ok, document: { id, deleted: true }, text: formatDlqDeleted(id) };
  },
};
