import { CreateWebhookEndpointRequestSchema, WebhookEndpointListViewSchema, WebhookEndpointViewSchema } from '@longhaul/contracts';
import { describeOperations, problemResponse } from '@longhaul/platform';
import { WebhookEndpointsController } from '../webhook-endpoints.controller';
import { IdPathSchema, JSON_BODY_RESPONSES, location, malformedId, notFound } from './api.responses';

/** `POST|GET /v1/webhook-endpoints`, `GET|DELETE /v1/webhook-endpoints/{id}`. */
export const WEBHOOK_ENDPOINTS_OPERATIONS = describeOperations(WebhookEndpointsController, {
  create: {
    summary: 'Register a webhook endpoint',
    description: "It hears the events it names of every job of the key's tenant. Requests to it are signed (Standard Webhooks) with its secret, shown in this answer only.",
    tags: ['webhooks'],
    body: { schema: CreateWebhookEndpointRequestSchema },
    responses: {
      201: {
        description: 'Registered: the endpoint with its `secret`.',
        schema: WebhookEndpointViewSchema,
        headers: location('The endpoint: `/v1/webhook-endpoints/{id}`.'),
        links: {
          read: { operationId: 'webhookEndpointsGet', parameters: { 'path.id': '$response.body#/id' }, description: 'Read the endpoint.' },
          delete: { operationId: 'webhookEndpointsRemove', parameters: { 'path.id': '$response.body#/id' }, description: 'Delete the endpoint.' },
        },
      },
      400: problemResponse('`validation_failed`, `malformed_json`, or `webhook_url_forbidden`: not https, over 2 KiB, or a non-public host.'),
      ...JSON_BODY_RESPONSES,
    },
  },
  list: {
    summary: 'List webhook endpoints',
    tags: ['webhooks'],
    responses: { 200: { description: 'The endpoints (without their secrets).', schema: WebhookEndpointListViewSchema } },
  },
  get: {
    summary: 'Get a webhook endpoint',
    tags: ['webhooks'],
    path: IdPathSchema,
    responses: { 200: { description: 'The endpoint (without its secret).', schema: WebhookEndpointViewSchema }, 400: malformedId('webhook endpoint'), 404: notFound('webhook endpoint') },
  },
  remove: {
    summary: 'Delete a webhook endpoint',
    tags: ['webhooks'],
    path: IdPathSchema,
    responses: { 204: { description: 'Deleted: it hears nothing more.' }, 400: malformedId('webhook endpoint'), 404: notFound('webhook endpoint') },
  },
});
