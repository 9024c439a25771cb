import { QueuesViewSchema } from '@longhaul/contracts';
import { describeOperations } from '@longhaul/platform';
import { QueuesController } from '../queues.controller';

/** `GET /v1/queues`. */
export const QUEUES_OPERATIONS = describeOperations(QueuesController, {
  queues: {
    summary: 'Queues and admission',
    description: "Each lane's depth, consumer lag, oldest waiting attempt, throughput and limits, and whether it admits new jobs; the messages in each dead-letter topic. The lanes are every tenant's.",
    tags: ['operations'],
    responses: { 200: { description: 'The lanes, sampled now.', schema: QueuesViewSchema } },
  },
});
