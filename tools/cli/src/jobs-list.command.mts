/**
 * `longhaul jobs list`: `GET /v1/jobs`, one page, newest first, with the command for the next.
 */
import type { JobListView } from './api.types.mts';
import { ExitCodes } from './cli.errors.mts';
import type { CommandDefinition } from './command.types.mts';
import { formatJobList } from './job-list.format.mts';
import { positiveIntOption, stringOption } from './option.readers.mts';
import { shellQuote } from './shell.quote.mts';

export const jobsListCommand: CommandDefinition = {
  words: ['jobs', 'list'],
  operands: [],
  options: {
    status: { type: 'string' },
    type: { type: 'string' },
    limit: { type: 'string' },
    cursor: { type: 'string' },
  },
  summary: 'jobs, a page at a time',
  help: [
    'options:',
    '  --status STATUS   pending, running, completed, failed or cancelled',
    '  --type TYPE       e.g. video.process',
    '  --limit N         jobs per page',
    '  --cursor CURSOR   the page after the one that printed it',
  ].join('\n'),
  async run(context, input) {
    const filters = {
      status: stringOption(input.values, 'status'),
      type: stringOption(input.values, 'type'),
      limit: positiveIntOption(input.values, 'limit'),
    };
    const cursor = stringOption(input.values, 'cursor');
    const list = (await context.client.get<JobListView>('/v1/jobs', { ...filters, cursor })).body;
    const next = list.nextCursor
      ? ['longhaul jobs list', ...Object.entries(filters).flatMap(([name, value]) => (value === undefined ? [] : [`--${name} ${shellQuote(String(value))}`])), `--cursor ${shellQuote(list.nextCursor)}`].join(' ')
      : undefined;
    return { exitCode: ExitCodes.ok, document: list, text: formatJobList(list, next) };
  },
};
