/**
 * `longhaul status ID`: `GET /v1/jobs/{id}`: status, stage, steps with progress and every
 * attempt, and the download links.
 */
import type { JobView } from './api.types.mts';
import { ExitCodes } from './cli.errors.mts';
import type { CommandDefinition } from './command.types.mts';
import { formatJob, withAbsoluteDownloads } from './job.format.mts';
import { jobPath } from './job.watcher.mts';

export const statusCommand: CommandDefinition = {
  words: ['status'],
  operands: ['ID'],
  options: {},
  summary: 'a job: status, stage, steps and attempts, downloads',
  help: 'Exits 0 whatever the job\'s status; use submit --wait to wait for the end.',
  async run(context, input) {
    const job = (await context.client.get<JobView>(jobPath(input.operands[0] ?? ''))).body;
    return { exitCode: ExitCodes.ok, document: withAbsoluteDownloads(job, context.client), text: formatJob(job, context.client) };
  },
};
