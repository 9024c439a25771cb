import type { StepRequestedV1 } from '@longhaul/contracts';
import { abortableDelay, type StepContext, type StepExecutor } from '@longhaul/step-worker';
import { requestedRenditions, transcodeOutputKeys } from './output-keys.policy';

/**
 * Stands in for ffmpeg (`STEP_MODE=placeholder`) where no media is at hand: takes `durationMs`, honours the abort
 * signal like a real step, and reports the deterministic output keys a real run would write.
 */
export class PlaceholderTranscodeExecutor implements StepExecutor {
  readonly step = 'transcode' as const;

  constructor(private readonly durationMs: number) {}

  async run(request: StepRequestedV1, context: StepContext): Promise<Record<string, unknown>> {
    await abortableDelay(this.durationMs, context.signal);
    return { placeholder: true, ...transcodeOutputKeys(request.jobId, requestedRenditions(request.outputs)) };
  }
}
