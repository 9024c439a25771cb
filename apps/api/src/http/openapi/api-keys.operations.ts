import {
  API_KEY_MAX_ROTATION_GRACE_S,
  ApiKeyListViewSchema,
  ApiKeyViewSchema,
  CreateApiKeyRequestSchema,
  CreatedApiKeyViewSchema,
  ListApiKeysQuerySchema,
  RotateApiKeyRequestSchema,
  RotatedApiKeyViewSchema,
  UpdateApiKeyRequestSchema,
} from '@longhaul/contracts';
import { MAX_UNREVOKED_KEYS_PER_TENANT } from '@longhaul/auth';
import { describeOperations, problemResponse } from '@longhaul/platform';
import { ApiKeysController } from '../api-keys.controller';
import { IdPathSchema, invalidQuery, JSON_BODY_RESPONSES, location, malformedId, notFound } from './api.responses';

const keyNotFound = notFound('API key');

/** `POST|GET /v1/api-keys`, `GET|PATCH /v1/api-keys/{id}`, `POST /v1/api-keys/{id}/rotate|revoke`. */
export const API_KEYS_OPERATIONS = describeOperations(ApiKeysController, {
  create: {
    summary: 'Create an API key',
    description:
      "A new key of this key's tenant. It gets only scopes the calling key holds (another is `403 insufficient_scope`), a rate limit no higher than the calling key's (its own when none is given), and an expiry in the future within ten years, or none. " +
      `The key itself is in this answer only. A tenant holds at most ${MAX_UNREVOKED_KEYS_PER_TENANT} unrevoked keys.`,
    tags: ['api keys'],
    body: { schema: CreateApiKeyRequestSchema },
    responses: {
      201: {
        description: 'Created: the key, with `key` (`lh_<prefix>_<secret>`).',
        schema: CreatedApiKeyViewSchema,
        headers: location('The key: `/v1/api-keys/{id}`.'),
        links: {
          read: { operationId: 'apiKeysGet', parameters: { 'path.id': '$response.body#/id' }, description: 'Read the key.' },
          revoke: { operationId: 'apiKeysRevoke', parameters: { 'path.id': '$response.body#/id' }, description: 'Revoke the key.' },
        },
      },
      400: problemResponse('`validation_failed` (`errors` names each field: a rate limit above the calling key\'s, an expiry past or beyond ten years among them) or `malformed_json`.'),
      409: problemResponse(`\`api_key_limit_reached\`: the tenant already holds ${MAX_UNREVOKED_KEYS_PER_TENANT} unrevoked keys; revoke one first.`),
      ...JSON_BODY_RESPONSES,
    },
  },
  list: {
    summary: 'List API keys',
    description: "This tenant's keys, newest first, revoked and expired ones included (`state`); never their secrets.",
    tags: ['api keys'],
    query: ListApiKeysQuerySchema,
    responses: { 200: { description: 'A page of keys; `nextCursor` reads the next.', schema: ApiKeyListViewSchema }, 400: invalidQuery },
  },
  get: {
    summary: 'Get an API key',
    tags: ['api keys'],
    path: IdPathSchema,
    responses: { 200: { description: 'The key (without its secret).', schema: ApiKeyViewSchema }, 400: malformedId('API key'), 404: keyNotFound },
  },
  update: {
    summary: 'Change an API key',
    description:
      'A new `name` (null: none) or `expiresAt` (in the future within ten years; null: never), at least one; the calling key included. Scopes and rate limit are not changed in place: rotate the key, or make another. ' +
      'A revoked key stays revoked (`409 api_key_not_active`); an expired one given a later expiry works again within a second. Only a key holding all its scopes and at least its rate limit makes its expiry later or removes it (else `403 insufficient_scope`); any may make it sooner.',
    tags: ['api keys'],
    path: IdPathSchema,
    body: { schema: UpdateApiKeyRequestSchema },
    responses: {
      200: { description: 'The key as it is now.', schema: ApiKeyViewSchema },
      400: problemResponse('`validation_failed` (`errors` names each field: an expiry past or beyond ten years, a blank name, no field to change, among them), `malformed_json`, or `malformed_id`.'),
      404: keyNotFound,
      409: problemResponse('`api_key_not_active`: the key is revoked.'),
      ...JSON_BODY_RESPONSES,
    },
  },
  rotate: {
    summary: 'Rotate an API key',
    description:
      'A new key with the same name, scopes, rate limit and expiry replaces this one, in one step, the calling key included. ' +
      `The old key is revoked at once, or with \`graceSeconds\` (up to ${API_KEY_MAX_ROTATION_GRACE_S}, seven days) expires then, or sooner if it was to, so clients can move over meanwhile. ` +
      "Only an active key is rotated, by a key holding all its scopes (else `403 insufficient_scope`) and at least its rate limit. The body may be left out. The new key is in this answer only.",
    tags: ['api keys'],
    path: IdPathSchema,
    body: { schema: RotateApiKeyRequestSchema, required: false },
    responses: {
      201: {
        description: 'Rotated: the new key, with `key` (`lh_<prefix>_<secret>`), and `replaced`, the old key as it is now.',
        schema: RotatedApiKeyViewSchema,
        headers: location('The new key: `/v1/api-keys/{id}`.'),
        links: {
          read: { operationId: 'apiKeysGet', parameters: { 'path.id': '$response.body#/id' }, description: 'Read the new key.' },
        },
      },
      400: problemResponse('`validation_failed` (`graceSeconds` not a whole number from 0 to 604800, or another field), `malformed_json`, or `malformed_id`.'),
      404: keyNotFound,
      409: problemResponse(
        `\`api_key_not_active\`: the key is revoked or expired; or \`api_key_limit_reached\`: with a grace period both keys count, and the tenant already holds ${MAX_UNREVOKED_KEYS_PER_TENANT} unrevoked keys.`,
      ),
      ...JSON_BODY_RESPONSES,
    },
  },
  revoke: {
    summary: 'Revoke an API key',
    description: 'The api refuses the key within a second, the calling key included. Revoking again changes nothing and answers the same.',
    tags: ['api keys'],
    path: IdPathSchema,
    responses: { 200: { description: 'Revoked (`revokedAt`: the first revocation).', schema: ApiKeyViewSchema }, 400: malformedId('API key'), 404: keyNotFound },
  },
});
