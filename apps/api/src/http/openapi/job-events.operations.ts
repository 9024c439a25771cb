import { z } from 'zod';
import { describeOperations, problemResponse } from '@longhaul/platform';
import { JobEventsController } from '../job-events.controller';
import { IdPathSchema, notFound } from './api.responses';

/** A position in a job's feed: the `id` of an event it sent. */
const FeedPositionSchema = z.string().regex(/^\d{1,10}$/);

/** `GET /v1/jobs/{id}/events`. */
export const JOB_EVENTS_OPERATIONS = describeOperations(JobEventsController, {
  events: {
    summary: "Follow a job's events",
    description:
      'Server-Sent Events: every entry of the job\'s feed (status changes, step progress, attempts) from the start, or after `Last-Event-ID` ' +
      '(else `?lastEventId=`), live from any api instance until the job ends. Each event\'s `id` is its position.',
    tags: ['jobs'],
    path: IdPathSchema,
    query: z.object({ lastEventId: FeedPositionSchema.optional().describe('Resume after this event (for clients that cannot set Last-Event-ID)') }),
    headers: z.object({ 'Last-Event-ID': FeedPositionSchema.optional().describe('Resume after this event (what EventSource sends on reconnecting)') }),
    responses: {
      200: { description: 'The event stream; it ends after the event that ends the job.', contentTypes: ['text/event-stream'] },
      204: { description: 'The job has ended and the client has every event: an EventSource stops reconnecting.' },
      400: problemResponse('`malformed_id`, or `validation_failed`: the resume position is not an event of this job.'),
      404: notFound('job'),
    },
  },
});
