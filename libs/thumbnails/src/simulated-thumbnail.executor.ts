import { SimulatedStepExecutor, type SimulationSettings, type StepExecutor } from '@longhaul/step-worker';
import { DEFAULT_THUMBNAIL_COUNT, thumbnailOutputKeys } from './thumbnail-keys.policy';

/**
 * The thumbnail step in the simulated step mode (`STEP_MODE=simulated`): outcomes from the
 * settings and the job's `sim.*` metadata, and the same output keys a real run would write.
 */
export function simulatedThumbnailExecutor(settings: SimulationSettings): StepExecutor {
  return new SimulatedStepExecutor({
    ...settings,
    step: 'thumbnail',
    outputs: (request) => thumbnailOutputKeys(request.jobId, request.outputs.thumbnails?.count ?? DEFAULT_THUMBNAIL_COUNT),
  });
}
