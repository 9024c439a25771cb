/**
 * `longhaul dead-letters replay ID`: `POST /v1/dead-letters/{id}/replay`: runs the dead step
 * again as a new attempt series. The api answers 202 when this call started it and 200 when it
 * had been replayed before (nothing runs twice); both exit 0.
 */
import type { DeadLetterView } from './api.types.mts';
import { ExitCodes } from './cli.errors.mts';
import type { CommandDefinition } from './command.types.mts';
import { formatReplay } from './dead-letter.format.mts';

export const deadLetterReplayCommand: CommandDefinition = {
  words: ['dead-letters', 'replay'],
  operands: ['ID'],
  options: {},
  summary: 'run a dead-lettered step again (once, however often it is asked)',
  help: 'Prints whether this call started the replay; --json gives { started, deadLetter }.',
  async run(context, input) {
    const response = await context.client.post<DeadLetterView>(`/v1/dead-letters/${encodeURIComponent(input.operands[0] ?? '')}/replay`);
    const started = response.status === 202;
    return { exitCode: ExitCodes.ok, document: { started, deadLetter: response.body }, text: formatReplay(response.body, started) };
  },
};
