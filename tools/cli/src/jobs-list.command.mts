/**
 * `longhaul jobs list`: `GET /v1/jobs`, one page, newest first, with the command for the next.
 */
import type { JobListView } from './api.types.mts';
import { ExitCodes } from './cli.errors.mts';
import type { CommandDefinition } from './command.types.mts';
import { formatJobList } from './job-list.format.mts';
import { jobWindowOption } from './job-window.option.mts';
import { positiveIntOption, stringOption } from './option.readers.mts';
import { shellQuote } from './shell.quote.mts';

export const jobsListCommand: CommandDefinition = {
  words: ['jobs', 'list'],
  operands: [],
  options: {
    status: { type: 'string' },
    type: { type: 'string' },
    since: { type: 'string' },
    before: { type: 'string' },
    limit: { type: 'string' },
    cursor: { type: 'string' },
  },
  summary: 'jobs, a page at a time',
  help: [
    'options:',
    '  --status STATUS   pending, running, completed, failed or cancelled',
    '  --type TYPE       e.g. video.process',
    '  --since WHEN      created at or after WHEN: how long ago (30m, 12h, 7d) or a time with its',
    '                    offset (2026-12-06T09:00:00Z)',
    '  --before WHEN     created before WHEN, the same way',
    '  --limit N         jobs per page',
    '  --cursor CURSOR   the page after the one that printed it',
  ].join('\n'),
  async run(context, input) {
    const window = jobWindowOption(input.values, Date.now());
    const filters = {
      status: stringOption(input.values, 'status'),
      type: stringOption(input.values, 'type'),
      since: window.createdSince,
      before: window.createdBefore,
      limit: positiveIntOption(input.values, 'limit'),
    };
    const cursor = stringOption(input.values, 'cursor');
    const query = { status: filters.status, type: filters.type, ...window, limit: filters.limit, cursor };
    const list = (await context.client.get<JobListView>('/v1/jobs', query)).body;
    // The window goes into the next-page command as moments: "--since 1h" run later would shift it.
    const next = list.nextCursor
      ? ['longhaul jobs list', ...Object.entries(filters).flatMap(([name, value]) => (value === undefined ? [] : [`--${name} ${shellQuote(String(value))}`])), `--cursor ${shellQuote(list.nextCursor)}`].join(' ')
      : undefined;
    return { exitCode: ExitCodes.ok, document: list, text: formatJobList(list, next) };
  },
};
