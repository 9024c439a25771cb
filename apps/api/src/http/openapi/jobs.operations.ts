import { z } from 'zod';
import { CreateJobRequestSchema, IDEMPOTENCY_KEY_MAX_LENGTH, JobListViewSchema, JobViewSchema, ListJobsQuerySchema } from '@longhaul/contracts';
import { describeOperations, problemResponse, type LinkDescription } from '@longhaul/platform';
import { JobsController } from '../jobs.controller';
import { IdPathSchema, invalidQuery, JSON_BODY_RESPONSES, location, malformedId, notFound, RATE_LIMIT_HEADERS, RETRY_AFTER } from './api.responses';

/** What a client does next with a job it submitted. */
const JOB_LINKS: Readonly<Record<string, LinkDescription>> = {
  read: { operationId: 'jobsGet', parameters: { 'path.id': '$response.body#/id' }, description: 'Poll the job.' },
  follow: { operationId: 'jobEventsEvents', parameters: { 'path.id': '$response.body#/id' }, description: "Follow the job's events." },
  cancel: { operationId: 'jobsCancel', parameters: { 'path.id': '$response.body#/id' }, description: 'Cancel the job.' },
  deliveries: { operationId: 'jobDeliveriesList', parameters: { 'path.id': '$response.body#/id' }, description: "See the job's notifications." },
};

/** `POST /v1/jobs`, `GET /v1/jobs`, `GET /v1/jobs/{id}`, `POST /v1/jobs/{id}/cancel`. */
export const JOBS_OPERATIONS = describeOperations(JobsController, {
  create: {
    summary: 'Submit a job',
    description:
      'Checks the source (an earlier upload, or a URL the api downloads and probes now), picks the lane and writes the job in one transaction. ' +
      'With `Idempotency-Key`, a repeat of an accepted submit returns the same job (`Idempotent-Replayed: true`) without fetching anything again.',
    tags: ['jobs'],
    headers: z.object({
      'Idempotency-Key': z.string().min(1).max(IDEMPOTENCY_KEY_MAX_LENGTH).optional().describe('Makes the submit safe to repeat, for 24 hours'),
    }),
    body: { schema: CreateJobRequestSchema },
    responses: {
      202: {
        description: 'Accepted: the job, with its webhook secret if it names a webhook URL.',
        schema: JobViewSchema,
        headers: {
          ...location('The job: `/v1/jobs/{id}`.'),
          'Idempotent-Replayed': { description: '`true` when this answers a repeat of an accepted submit.', schema: z.literal('true') },
        },
        links: JOB_LINKS,
      },
      400: problemResponse(
        '`validation_failed` (the body; `errors` names each field), `malformed_json`, `idempotency_key_invalid`, or `webhook_url_forbidden` (a webhook URL the api will not call).',
      ),
      ...JSON_BODY_RESPONSES,
      422: problemResponse(
        '`idempotency_key_reused` (the key was used for another body), `upload_not_found`, or a refused source: `source_*` (unreachable, forbidden address, too large, bad scheme) and `media_*` (not a video the api can read).',
      ),
      429: problemResponse('`overloaded`: the job\'s lane is full, try again after `Retry-After`; or `rate_limited`: the key is over its quota.', {
        ...RETRY_AFTER,
        ...RATE_LIMIT_HEADERS,
      }),
    },
  },
  list: {
    summary: 'List jobs',
    description: 'Newest first, `limit` at a time; pass the `nextCursor` of a page as `cursor` for the next. Pages are cut by position, so jobs submitted meanwhile never shift or repeat. `createdSince` (inclusive) and `createdBefore` (exclusive) keep jobs created in a window; a `cursor` goes with the filters of the page that gave it. Jobs finished longer ago than the retention (`JOB_RETENTION_MS`) are gone.',
    tags: ['jobs'],
    query: ListJobsQuerySchema,
    responses: { 200: { description: 'A page of jobs.', schema: JobListViewSchema }, 400: invalidQuery },
  },
  get: {
    summary: 'Get a job',
    description: 'The job with its stage, steps and every attempt, its probed media, and links to the files it produced so far. A job finished longer ago than the retention (`JOB_RETENTION_MS`, 7 days by default) has been deleted and is not found.',
    tags: ['jobs'],
    path: IdPathSchema,
    responses: { 200: { description: 'The job.', schema: JobViewSchema }, 400: malformedId('job'), 404: notFound('job') },
  },
  cancel: {
    summary: 'Cancel a job',
    description: 'Idempotent: cancelling a cancelled job answers `200`.',
    tags: ['jobs'],
    path: IdPathSchema,
    responses: {
      200: { description: 'The job was cancelled before.', schema: JobViewSchema },
      202: { description: 'This call cancelled the job.', schema: JobViewSchema },
      400: malformedId('job'),
      404: notFound('job'),
      409: problemResponse('`job_finished`: the job completed or failed; `status` says which.'),
    },
  },
});
