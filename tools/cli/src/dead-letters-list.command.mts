/**
 * `longhaul dead-letters list`: `GET /v1/dead-letters`: steps whose retries ran out, newest
 * first, and their groups by fingerprint.
 */
import type { DeadLetterListView } from './api.types.mts';
import { ExitCodes } from './cli.errors.mts';
import type { CommandDefinition } from './command.types.mts';
import { formatDeadLetterList } from './dead-letter.format.mts';
import { positiveIntOption, stringOption } from './option.readers.mts';

export const deadLettersListCommand: CommandDefinition = {
  words: ['dead-letters', 'list'],
  operands: [],
  options: {
    'job-type': { type: 'string' },
    'error-code': { type: 'string' },
    fingerprint: { type: 'string' },
    limit: { type: 'string' },
  },
  summary: 'dead letters, newest first, grouped by fingerprint',
  help: [
    'options:',
    '  --job-type TYPE      e.g. video.process',
    '  --error-code CODE    e.g. step_timed_out',
    '  --fingerprint F      16 hex characters, from a group',
    '  --limit N            at most N dead letters (api default 100, at most 500)',
  ].join('\n'),
  async run(context, input) {
    const list = (
      await context.client.get<DeadLetterListView>('/v1/dead-letters', {
        jobType: stringOption(input.values, 'job-type'),
        errorCode: stringOption(input.values, 'error-code'),
        fingerprint: stringOption(input.values, 'fingerprint'),
        limit: positiveIntOption(input.values, 'limit'),
      })
    ).body;
    return { exitCode: ExitCodes.ok, document: list, text: formatDeadLetterList(list) };
  },
};
