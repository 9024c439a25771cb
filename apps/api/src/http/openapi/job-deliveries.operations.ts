import { JobDeliveriesViewSchema } from '@longhaul/contracts';
import { describeOperations } from '@longhaul/platform';
import { JobDeliveriesController } from '../job-deliveries.controller';
import { IdPathSchema, malformedId, notFound } from './api.responses';

/** `GET /v1/jobs/{id}/deliveries`. */
export const JOB_DELIVERIES_OPERATIONS = describeOperations(JobDeliveriesController, {
  list: {
    summary: "A job's notifications",
    description: 'Every webhook and email delivery of the job\'s events, with each attempt and its outcome.',
    tags: ['webhooks'],
    path: IdPathSchema,
    responses: { 200: { description: 'The deliveries.', schema: JobDeliveriesViewSchema }, 400: malformedId('job'), 404: notFound('job') },
  },
});
