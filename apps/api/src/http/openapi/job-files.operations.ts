import { z } from 'zod';
import { describeOperations, type HeaderDescription, type OperationDescription, type ResponseDescription } from '@longhaul/platform';
import { JobFilesController } from '../job-files.controller';
import { malformedId, notFound } from './api.responses';

/** A file's path under its job: segments of `[A-Za-z0-9._-]`, as the job view's `downloads` name them. */
const FilePathSchema = z.string().min(1).describe('The file, e.g. `transcode/720p/video.mp4` or `thumbnails/poster.jpg`');

const RANGE_HEADERS = z.object({ Range: z.string().optional().describe('One byte range, `bytes=<first>-[<last>]` (filesystem store)') });

const ANY_FILE = ['*/*'];
const LENGTH: Record<string, HeaderDescription> = { 'Content-Length': { description: 'Bytes in this answer.', schema: z.string().regex(/^\d+$/) } };
const ACCEPT_RANGES: Record<string, HeaderDescription> = { 'Accept-Ranges': { description: '`bytes`: ranges are served.', schema: z.literal('bytes') } };

/** What both routes answer: the same file, by the same rules. */
const FILE_RESPONSES: Readonly<Record<number, ResponseDescription>> = {
  200: {
    description: 'The whole file (its media type by extension); HLS playlists and the sprite sheet\'s WebVTT come rewritten so every reference works the same way this file was reached.',
    contentTypes: ANY_FILE,
    headers: { ...LENGTH, ...ACCEPT_RANGES },
  },
  206: {
    description: 'The byte range asked for.',
    contentTypes: ANY_FILE,
    headers: { ...LENGTH, ...ACCEPT_RANGES, 'Content-Range': { description: '`bytes <first>-<last>/<size>`.', schema: z.string().regex(/^bytes \d+-\d+\/\d+$/), required: true } },
  },
  302: {
    description: 'Object storage: a presigned URL of the file, valid for a while.',
    headers: { Location: { description: 'The presigned URL.', schema: z.string(), required: true } },
  },
  416: {
    description: 'The range lies outside the file.',
    headers: { 'Content-Range': { description: '`bytes */<size>`.', schema: z.string().regex(/^bytes \*\/\d+$/), required: true } },
  },
};

const common: Pick<OperationDescription, 'tags' | 'headers'> = { tags: ['files'], headers: RANGE_HEADERS };

/** `GET /v1/jobs/{id}/files/{path}` with an API key, `GET /v1/files/{grant}/{path}` with a download grant. */
export const JOB_FILES_OPERATIONS = describeOperations(JobFilesController, {
  get: {
    ...common,
    summary: 'Download a file of a job',
    description: 'With ranges (a player can seek) from the filesystem store; a redirect to a presigned URL from object storage.',
    path: z.object({ id: z.uuid().describe('The job'), path: FilePathSchema }),
    responses: { ...FILE_RESPONSES, 400: malformedId('job'), 404: notFound('job or file') },
  },
  granted: {
    ...common,
    summary: 'Download a file by a signed link',
    description:
      'The links in a job view\'s `downloads`: the grant in the path is the credential, so a browser\'s `<video>`, `<img>` or hls.js and plain downloads need no key. ' +
      'A grant is valid for one job and expires.',
    path: z.object({ grant: z.string().min(1).describe('The download grant, as the job view gives it'), path: FilePathSchema }),
    responses: { ...FILE_RESPONSES, 404: notFound('file, or the grant is not valid or has expired') },
  },
});
