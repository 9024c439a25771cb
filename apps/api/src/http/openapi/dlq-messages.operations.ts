import { z } from 'zod';
import { DlqMessageIdSchema, DlqMessageListViewSchema, DlqMessageViewSchema } from '@longhaul/contracts';
import { describeOperations, problemResponse, type ResponseDescription } from '@longhaul/platform';
import { DlqListQuerySchema, DlqMessagesController } from '../dlq-messages.controller';
import { invalidQuery, location, notFound } from './api.responses';

/** `{id}` of a dead-lettered message: its record id. */
const MessageIdPathSchema = z.object({ id: DlqMessageIdSchema.describe('A record id: a positive whole number') });

const malformedMessageId: ResponseDescription = problemResponse('`malformed_id`: the id is not a positive whole number.');
const messageNotFound = notFound("dead-lettered message (whose key is a job)");

/** `GET /v1/dlq-messages`, `GET|DELETE /v1/dlq-messages/{id}`, `POST /v1/dlq-messages/{id}/replay`. */
export const DLQ_MESSAGES_OPERATIONS = describeOperations(DlqMessagesController, {
  list: {
    summary: 'List dead-lettered messages',
    description:
      "Messages a consumer copied to a `<topic>.dlq` topic (it could not decode them, or its handler kept failing), as the api recorded them, newest first. Those keyed by one of this tenant's jobs.",
    tags: ['dead letters'],
    query: DlqListQuerySchema,
    responses: { 200: { description: 'The messages.', schema: DlqMessageListViewSchema }, 400: invalidQuery },
  },
  get: {
    summary: 'Get a dead-lettered message',
    tags: ['dead letters'],
    path: MessageIdPathSchema,
    responses: { 200: { description: 'The message, with its headers and value.', schema: DlqMessageViewSchema }, 400: malformedMessageId, 404: messageNotFound },
  },
  replay: {
    summary: 'Replay a dead-lettered message',
    description:
      'Sends the message back to the topic it came from, through the outbox, under its own event id: consumers that handled it before skip it. Sent at most once: replaying again answers `200` and sends nothing.',
    tags: ['dead letters'],
    path: MessageIdPathSchema,
    responses: {
      200: { description: 'It was replayed before (`replayedAt`); nothing was sent.', schema: DlqMessageViewSchema, headers: location('Its job: `/v1/jobs/{id}`.') },
      202: { description: 'This call sent it.', schema: DlqMessageViewSchema, headers: location('Its job: `/v1/jobs/{id}`.') },
      400: malformedMessageId,
      404: messageNotFound,
      409: problemResponse('`message_not_replayable`: the outbox cannot carry it (no event id, type or key; a value that is not JSON); `detail` says why.'),
    },
  },
  remove: {
    summary: 'Delete a dead-lettered message',
    description: "Deletes the record; Kafka's copy expires with its topic.",
    tags: ['dead letters'],
    path: MessageIdPathSchema,
    responses: { 204: { description: 'Deleted.' }, 400: malformedMessageId, 404: messageNotFound },
  },
});
