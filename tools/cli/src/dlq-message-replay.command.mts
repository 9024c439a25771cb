/**
 * `longhaul dlq-messages replay ID`: `POST /v1/dlq-messages/{id}/replay`: sends the message back
 * to the topic it came from. The api answers 202 when this call sent it and 200 when it had been
 * sent before (nothing is sent twice); both exit 0. A message the api cannot send (409
 * `message_not_replayable`) is an api error like any other: exit 1, its reason on stderr.
 */
import type { DlqMessageView } from './api.types.mts';
import { ExitCodes } from './cli.errors.mts';
import type { CommandDefinition } from './command.types.mts';
import { formatDlqReplay } from './dlq-message.format.mts';
import { dlqMessagePath } from './dlq-message.path.mts';

export const dlqMessageReplayCommand: CommandDefinition = {
  words: ['dlq-messages', 'replay'],
  operands: ['ID'],
  options: {},
  summary: 'send a dead-lettered message back to its topic, once',
  help: [
    'Prints whether this call sent it (202) or it had been sent before (200); --json gives { sent, message }.',
    'A message that cannot be replayed (409 message_not_replayable) exits 1 and the reason is printed.',
  ].join('\n'),
  async run(context, input) {
    const response = await context.client.post<DlqMessageView>(dlqMessagePath(input.operands[0] ?? '', '/replay'));
    const sent = response.status === 202;
    return { exitCode: ExitCodes.ok, document: { sent, message: response.body }, text: formatDlqReplay(response.body, sent) };
  },
};
