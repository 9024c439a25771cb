import type { z } from 'zod';
import type { UploadView } from './upload.view';
import { UploadViewSchema } from './upload.view.schema';

// Compile-time: the schema's type and the view are assignable both ways (the probe included).
type Parsed = z.infer<typeof UploadViewSchema>;
const bothWays = [(p: Parsed): UploadView => p, (v: UploadView): Parsed => v];

describe('UploadViewSchema', () => {
  it('is the UploadView interface, both ways (checked by the compiler)', () => {
    expect(bothWays).toHaveLength(2);
  });
});
