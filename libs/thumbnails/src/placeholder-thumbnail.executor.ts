import type { StepRequestedV1 } from '@longhaul/contracts';
import { abortableDelay, type StepContext, type StepExecutor } from '@longhaul/step-worker';
import { DEFAULT_THUMBNAIL_COUNT, thumbnailOutputKeys } from './thumbnail-keys.policy';

/**
 * Stands in for frame extraction (`STEP_MODE=placeholder`) where no media is at hand: takes `durationMs`, honours the
 * abort signal, and reports the deterministic keys a real run would write.
 */
export class PlaceholderThumbnailExecutor implements StepExecutor {
  readonly step = 'thumbnail' as const;

  constructor(private readonly durationMs: number) {}

  async run(request: StepRequestedV1, context: StepContext): Promise<Record<string, unknown>> {
    await abortableDelay(this.durationMs, context.signal);
    const count = request.outputs.thumbnails?.count ?? DEFAULT_THUMBNAIL_COUNT;
    return { placeholder: true, ...thumbnailOutputKeys(request.jobId, count) };
  }
}
