import { z } from 'zod';
import { IsoDateTimeSchema, MediaInfoViewSchema } from '@longhaul/contracts';

/** `UploadView` as a schema (kept equal to the interface by `upload.view.schema.spec.ts`). */
export const UploadViewSchema = z.object({
  id: z.uuid(),
  sizeBytes: z.int().min(0),
  contentType: z.string().nullable(),
  filename: z.string().nullable(),
  media: MediaInfoViewSchema,
  createdAt: IsoDateTimeSchema,
});
