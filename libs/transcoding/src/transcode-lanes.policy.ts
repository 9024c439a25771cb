import { Lanes, Topics, type Lane } from '@longhaul/contracts';
import type { StepWorkerLaneOptions } from '@longhaul/step-worker';

/** What decides a transcoder instance's lanes (from `WORKER_LANES`, `STEP_CONCURRENCY_*`, `FAST_LANE_BUDGET_MS`). */
export interface TranscodeLaneSettings {
  /** The lanes this instance serves. */
  lanes: readonly Lane[];
  /** Fast-lane attempts run at once. */
  fastConcurrency: number;
  /** Slow-lane attempts run at once. */
  slowConcurrency: number;
  /** Longest fast-lane attempt before it is demoted to the slow lane; 0 for no budget. */
  fastBudgetMs: number;
}

/**
 * The transcoder's lanes, in lane order, restricted to those the instance serves. Each lane has
 * its own topic and consumer group, so the api can read each lane's lag, and an instance can be
 * dedicated to one lane. Only the fast lane has a budget: the slow lane is where long work goes.
 */
export function transcodeLanes(settings: TranscodeLaneSettings): StepWorkerLaneOptions[] {
  const all: Record<Lane, StepWorkerLaneOptions> = {
    fast: {
      lane: 'fast',
      topics: [Topics.transcodeRequestsFast],
      groupId: 'longhaul.transcoder.fast',
      concurrency: settings.fastConcurrency,
      budgetMs: settings.fastBudgetMs > 0 ? settings.fastBudgetMs : null,
    },
    slow: {
      lane: 'slow',
      topics: [Topics.transcodeRequestsSlow],
      groupId: 'longhaul.transcoder.slow',
      concurrency: settings.slowConcurrency,
      budgetMs: null,
    },
  };
  return Lanes.filter((lane) => settings.lanes.includes(lane)).map((lane) => all[lane]);
}
