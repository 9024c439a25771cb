/**
 * `longhaul submit FILE|URL`: uploads a local file (`POST /v1/uploads`, streamed) or names a
 * URL for the api to fetch, submits a `video.process` job for it (`POST /v1/jobs`, with an
 * `Idempotency-Key`), and with `--wait` follows it to its end and lists its downloads.
 */
import { randomUUID } from 'node:crypto';
import type { JobView, UploadView } from './api.types.mts';
import { ExitCodes, isAbort, UsageError } from './cli.errors.mts';
import type { CommandContext, CommandDefinition, CommandInput, CommandResult } from './command.types.mts';
import { localFile, uploadFile } from './file.uploader.mts';
import { formatOutcome, formatSubmitted, withAbsoluteDownloads } from './job.format.mts';
import { buildJobRequest } from './job-request.builder.mts';
import type { JobSource } from './job-request.builder.mts';
import { watchJob } from './job.watcher.mts';
import { flagOption, httpUrlOption, isHttpUrl, keyValueOption, listOption, positiveIntOption, stringOption } from './option.readers.mts';
import { ProgressDisplay } from './progress.display.mts';
import { formatBytes } from './units.format.mts';

export const submitCommand: CommandDefinition = {
  words: ['submit'],
  operands: ['FILE|URL'],
  options: {
    wait: { type: 'boolean' },
    renditions: { type: 'string' },
    thumbnails: { type: 'string' },
    webhook: { type: 'string' },
    email: { type: 'string' },
    'idempotency-key': { type: 'string' },
    metadata: { type: 'string', multiple: true },
  },
  summary: 'upload a video (or name a URL) and submit a video.process job for it',
  help: [
    'FILE is uploaded first (streamed, with a progress bar); an http(s) URL is fetched by the api.',
    '',
    'options:',
    '  --wait                    follow the job to its end, then print its downloads;',
    '                            exit 1 if it failed or was cancelled',
    '  --renditions LIST         e.g. 720p,360p (default: the whole ladder)',
    '  --thumbnails N            how many thumbnails (default: the api\'s, 5)',
    '  --metadata KEY=VALUE      repeatable: --metadata a=1 --metadata b=2',
    '  --webhook URL             notify this URL when the job ends',
    '  --email ADDRESS           notify this address when the job ends',
    '  --idempotency-key KEY     resubmitting with the same KEY returns the same job',
    '                            (default: a random UUID, printed with --json)',
  ].join('\n'),
  run: runSubmit,
};

async function runSubmit(context: CommandContext, input: CommandInput): Promise<CommandResult> {
  const target = input.operands[0] ?? '';
  // Every option is checked before anything is uploaded, so a typo never costs an upload.
  const wait = flagOption(input.values, 'wait');
  const idempotencyKey = stringOption(input.values, 'idempotency-key') ?? randomUUID();
  const requestInput = {
    renditions: listOption(input.values, 'renditions'),
    thumbnails: positiveIntOption(input.values, 'thumbnails'),
    metadata: keyValueOption(input.values, 'metadata'),
    webhookUrl: httpUrlOption(input.values, 'webhook'),
    email: emailOption(input.values),
  };
  const display = new ProgressDisplay(context.io.stderr);

  let upload: UploadView | undefined;
  let source: JobSource;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(target)) {
    if (!isHttpUrl(target)) throw new UsageError(`only http and https URLs can be submitted, not "${target}"`);
    source = { url: target };
  } else {
    const file = await localFile(target);
    upload = await uploadFile(context.client, file, (sent, total) =>
      display.set('upload', {
        label: 'upload',
        fraction: total > 0 ? sent / total : 1,
        // Once every byte is sent the api still checks and probes the file before it answers.
        status: sent < total ? 'sending' : 'checking',
        detail: `${formatBytes(sent)} / ${formatBytes(total)}`,
      }),
    );
    display.set('upload', { label: 'upload', fraction: 1, status: 'done', detail: `${formatBytes(upload.sizeBytes)}, upload ${upload.id}` });
    source = { uploadId: upload.id };
  }

  const submitted = (
    await context.client.post<JobView>('/v1/jobs', {
      json: buildJobRequest({ source, ...requestInput }),
      headers: { 'idempotency-key': idempotencyKey },
    })
  ).body;
  const submittedText = formatSubmitted(submitted, upload);
  const documentFor = (job: JobView, extra: Record<string, unknown> = {}): unknown => ({
    upload: upload ?? null,
    idempotencyKey,
    job: withAbsoluteDownloads(job, context.client),
    ...extra,
  });
  if (!wait) {
    display.close();
    return { exitCode: ExitCodes.ok, document: documentFor(submitted), text: submittedText };
  }

  display.log(`job ${submitted.id} submitted; following it (Ctrl-C stops the waiting, not the job)`);
  try {
    const final = await watchJob(context, submitted, display);
    return {
      exitCode: final.status === 'completed' ? ExitCodes.ok : ExitCodes.failed,
      document: documentFor(final),
      text: submittedText + formatOutcome(final, context.client),
    };
  } catch (error) {
    if (!isAbort(error) && !context.io.signal?.aborted) throw error;
    display.close();
    // The job goes on without us: say how to find it again.
    return {
      exitCode: ExitCodes.interrupted,
      document: documentFor(submitted, { interrupted: true }),
      text: `${submittedText}stopped waiting; the job goes on: longhaul status ${submitted.id}\n`,
    };
  }
}

function emailOption(values: CommandInput['values']): string | undefined {
  const email = stringOption(values, 'email');
  if (email !== undefined && !/^[^\s@]+@[^\s@]+$/.test(email)) throw new UsageError(`--email must be an address, not "${email}"`);
  return email;
}
