// Where a closed loop's slow answers sit in time: spread over the window (each request slow on its
// own account) or bunched into a few moments (something held every request in flight at once).
// The submit report reads these to say why its p99 is what it is. Pure.
import { latencyPercentiles } from './latency.percentiles';

/** The slots the window is cut into to see whether slow answers bunch up. */
export const STALL_SLOT_MS = 100;

/** One run's figures. */
export interface AnswerStalls {
  /** Answers at or above the run's p99 (nearest rank). */
  slowAnswers: number;
  /** The {@link STALL_SLOT_MS} slots holding at least one of them. */
  slotsWithSlow: number;
  /** The slots they would be expected to fill if each fell at a random moment of the window. */
  slotsIfSpread: number;
  /** The window's slots (its length ÷ {@link STALL_SLOT_MS}, rounded up). */
  slots: number;
  /** The longest time with no answer at all between two consecutive answers, ms. */
  longestSilenceMs: number;
}

/**
 * `answeredAtMs[i]` is when answer i arrived (any monotonic clock, ms) and `latenciesMs[i]` how
 * long it took; the two lists are parallel. Null when the run had fewer than two answers.
 */
export function answerStalls(answeredAtMs: readonly number[], latenciesMs: readonly number[]): AnswerStalls | null {
  if (answeredAtMs.length < 2 || answeredAtMs.length !== latenciesMs.length) return null;
  const order = answeredAtMs.map((at, i) => ({ at, latency: latenciesMs[i]! })).sort((a, b) => a.at - b.at);
  const start = order[0]!.at;
  const slots = Math.max(1, Math.ceil((order[order.length - 1]!.at - start) / STALL_SLOT_MS));
  const p99 = latencyPercentiles(latenciesMs).p99;
  const slow = order.filter((a) => a.latency >= p99);
  const slotsWithSlow = new Set(slow.map((a) => Math.min(slots - 1, Math.floor((a.at - start) / STALL_SLOT_MS)))).size;
  let longestSilenceMs = 0;
  for (let i = 1; i < order.length; i++) longestSilenceMs = Math.max(longestSilenceMs, order[i]!.at - order[i - 1]!.at);
  return { slowAnswers: slow.length, slotsWithSlow, slotsIfSpread: expectedOccupiedSlots(slow.length, slots), slots, longestSilenceMs };
}

/** Expected number of the `slots` hit at least once by `balls` thrown independently and uniformly. */
export function expectedOccupiedSlots(balls: number, slots: number): number {
  return slots * (1 - Math.pow(1 - 1 / slots, balls));
}
