import { z } from 'zod';
import { describeOperations, problemResponse } from '@longhaul/platform';
import { UploadViewSchema } from '@longhaul/jobs';
import { UploadsController } from '../uploads.controller';
import { IdPathSchema, location, malformedId, notFound } from './api.responses';

/** `POST /v1/uploads`, `GET /v1/uploads/{id}`. */
export const UPLOADS_OPERATIONS = describeOperations(UploadsController, {
  create: {
    summary: 'Upload a video',
    description:
      'The raw video is the body (streamed, never held in memory). It is checked and probed before it is stored; a job then names it as `source: { uploadId }`. ' +
      'An upload no job has named for longer than the retention (`JOB_RETENTION_MS`, 7 days by default), and that no remaining job names, is deleted with its file.',
    tags: ['uploads'],
    headers: z.object({
      'Content-Disposition': z.string().optional().describe('`attachment; filename="…"`: the file name to remember'),
    }),
    body: { description: 'The video file.', contentTypes: ['video/*', 'application/octet-stream'] },
    responses: {
      201: {
        description: 'Stored: the upload and what ffprobe saw.',
        schema: UploadViewSchema,
        headers: location('The upload: `/v1/uploads/{id}`.'),
        links: { read: { operationId: 'uploadsGet', parameters: { 'path.id': '$response.body#/id' }, description: 'Read the upload.' } },
      },
      400: problemResponse('`validation_failed`: the body ended before it was complete.'),
      413: problemResponse('`payload_too_large`: the upload is larger than the api accepts (`maxBytes`).'),
      415: problemResponse('`unsupported_media_type`: the body is not `video/*` or `application/octet-stream`.'),
      422: problemResponse('`media_*`: empty, unreadable, refused (playlists and other files that reference files) or without a video stream.'),
    },
  },
  get: {
    summary: 'Get an upload',
    description: 'An upload deleted by retention (unused for longer than `JOB_RETENTION_MS`) is not found.',
    tags: ['uploads'],
    path: IdPathSchema,
    responses: { 200: { description: 'The upload.', schema: UploadViewSchema }, 400: malformedId('upload'), 404: notFound('upload') },
  },
});
