import { DeadLetterListViewSchema, DeadLetterViewSchema } from '@longhaul/contracts';
import { describeOperations, problemResponse } from '@longhaul/platform';
import { DeadLettersController, ListQuerySchema } from '../dead-letters.controller';
import { IdPathSchema, invalidQuery, location, malformedId, notFound } from './api.responses';

/** `GET /v1/dead-letters`, `GET|DELETE /v1/dead-letters/{id}`, `POST /v1/dead-letters/{id}/replay`. */
export const DEAD_LETTERS_OPERATIONS = describeOperations(DeadLettersController, {
  list: {
    summary: 'List dead letters',
    description: 'Steps whose attempts ran out, newest first, with their groups by fingerprint (same step, same error).',
    tags: ['dead letters'],
    query: ListQuerySchema,
    responses: { 200: { description: 'Dead letters and their groups.', schema: DeadLetterListViewSchema }, 400: invalidQuery },
  },
  get: {
    summary: 'Get a dead letter',
    tags: ['dead letters'],
    path: IdPathSchema,
    responses: { 200: { description: 'The dead letter with its attempts.', schema: DeadLetterViewSchema }, 400: malformedId('dead letter'), 404: notFound('dead letter') },
  },
  replay: {
    summary: 'Replay a dead letter',
    description: 'Starts a new attempt series of the dead step. Never a second run: replaying again answers `200` with the same dead letter.',
    tags: ['dead letters'],
    path: IdPathSchema,
    responses: {
      200: { description: 'It was replayed before (`replayedAt`).', schema: DeadLetterViewSchema, headers: location('The job: `/v1/jobs/{id}`.') },
      202: { description: 'This call started the new series.', schema: DeadLetterViewSchema, headers: location('The job: `/v1/jobs/{id}`.') },
      400: malformedId('dead letter'),
      404: notFound('dead letter'),
      409: problemResponse('`job_finished`: the job is no longer failed on this step.'),
    },
  },
  remove: {
    summary: 'Delete a dead letter',
    tags: ['dead letters'],
    path: IdPathSchema,
    responses: { 204: { description: 'Deleted.' }, 400: malformedId('dead letter'), 404: notFound('dead letter') },
  },
});
