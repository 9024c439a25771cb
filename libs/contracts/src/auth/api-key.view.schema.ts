import { z } from 'zod';
import { IsoDateTimeSchema } from '../jobs/job.view.schema';
import { API_KEY_SCOPES } from './api-key.dto';

/** `ApiKeyView` as a schema (kept equal to the interface by `api-key.view.schema.spec.ts`). */
export const ApiKeyViewSchema = z.object({
  id: z.uuid(),
  prefix: z.string().regex(/^[a-z0-9]{12}$/),
  name: z.string().nullable(),
  scopes: z.array(z.enum(API_KEY_SCOPES)),
  rateLimit: z.number().int().min(1).nullable(),
  state: z.enum(['active', 'expired', 'revoked']),
  createdAt: IsoDateTimeSchema,
  expiresAt: IsoDateTimeSchema.nullable(),
  revokedAt: IsoDateTimeSchema.nullable(),
  lastUsedAt: IsoDateTimeSchema.nullable(),
});

/** `CreatedApiKeyView`: the view and the key itself. */
export const CreatedApiKeyViewSchema = ApiKeyViewSchema.extend({
  key: z.string().regex(/^lh_[a-z0-9]{12}_[A-Za-z0-9]{40}$/),
});

/** `RotatedApiKeyView`: the new key and the one it replaces. */
export const RotatedApiKeyViewSchema = CreatedApiKeyViewSchema.extend({
  replaced: ApiKeyViewSchema,
});

/** `ApiKeyListView`. */
export const ApiKeyListViewSchema = z.object({
  items: z.array(ApiKeyViewSchema),
  nextCursor: z.uuid().nullable(),
});
