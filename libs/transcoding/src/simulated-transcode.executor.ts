import { SimulatedStepExecutor, type SimulationSettings, type StepExecutor } from '@longhaul/step-worker';
import { requestedRenditions, transcodeOutputKeys } from './output-keys.policy';

/**
 * The transcode step in the simulated step mode (`STEP_MODE=simulated`): outcomes from the
 * settings and the job's `sim.*` metadata, and the same output keys a real run would write.
 */
export function simulatedTranscodeExecutor(settings: SimulationSettings): StepExecutor {
  return new SimulatedStepExecutor({
    ...settings,
    step: 'transcode',
    outputs: (request) => transcodeOutputKeys(request.jobId, requestedRenditions(request.outputs)),
  });
}
