// Longhaul ÷ peer: the ratios and target verdicts the peer benchmarks report, from figures other
// benchmarks of the same run left in `throughputResults`. Pure.
import type { TargetCheck, Table } from '../benchmark';
import type { Summary } from '../stats';
import { ratioOfSummaries } from '../throughput/load-run';

/** What the report says where Longhaul's side (or the peer's) did not run. */
export const NOT_MEASURED = 'not measured in this run';

/** `2.41×`: a ratio as the peer tables print it. */
export function times(value: number): string {
  if (!Number.isFinite(value)) return '–';
  return `${value < 10 ? value.toFixed(2) : value.toFixed(1)}×`;
}

/** `2.41× (1.98–2.80×)`: the ratio of the medians and, as its range, the extreme pairings of repetitions. */
export function formatRatio(ratio: Summary): string {
  return `${times(ratio.median)} (${times(ratio.min).replace('×', '')}–${times(ratio.max)})`;
}

/** Whether a figure is there to divide: present, finite and not zero. */
function usable(summary: Summary | undefined): summary is Summary {
  return summary !== undefined && Number.isFinite(summary.median) && summary.median > 0;
}

/** Longhaul ÷ peer as repetitions' summaries, or undefined when either side is missing. */
export function longhaulOverPeer(longhaul: Summary | undefined, peer: Summary | undefined): Summary | undefined {
  return usable(longhaul) && usable(peer) ? ratioOfSummaries(longhaul, peer) : undefined;
}

/** Options of {@link ratioTarget}. */
export interface RatioTargetOptions {
  /** e.g. `Longhaul submit at 64 connections ÷ pg-boss one-by-one enqueue`. */
  name: string;
  /** The ratio Longhaul must reach (the verdict reads the ratio of the medians). */
  atLeast: number;
  longhaul: Summary | undefined;
  peer: Summary | undefined;
  /** Names the missing side, e.g. `submit (64 connections)`, `pg-boss enqueue`. */
  longhaulLabel: string;
  peerLabel: string;
  /** Formats the two rates in the measured cell. */
  format: (value: number) => string;
}

/**
 * A target "Longhaul ≥ k × peer". Not measured (met: null) when either side is missing. When the
 * repetitions' extreme pairings fall on both sides of the goal, the verdict stands on the medians
 * and carries a caveat saying the repetitions disagree.
 */
export function ratioTarget(options: RatioTargetOptions): TargetCheck {
  const target = `≥ ${options.atLeast.toFixed(2)}×`;
  const missing = [!usable(options.longhaul) && options.longhaulLabel, !usable(options.peer) && options.peerLabel].filter(Boolean);
  const ratio = longhaulOverPeer(options.longhaul, options.peer);
  if (!ratio || missing.length > 0) return { name: options.name, target, measured: `${NOT_MEASURED} (${missing.join(', ')})`, met: null };
  const measured = `${formatRatio(ratio)}: ${options.format(options.longhaul!.median)} ÷ ${options.format(options.peer!.median)}`;
  const straddles = ratio.min < options.atLeast && ratio.max >= options.atLeast;
  return {
    name: options.name,
    target,
    measured,
    met: ratio.median >= options.atLeast,
    ...(straddles ? { caveat: `the repetitions disagree: their pairings give ${times(ratio.min)} to ${times(ratio.max)}` } : {}),
  };
}

/** One row of a "Longhaul ÷ peer" table. */
export interface ComparedFigure {
  /** e.g. `chains/s at saturation`. */
  what: string;
  longhaul: Summary | undefined;
  peers: ReadonlyArray<{ name: string; figure: Summary | undefined }>;
  /** True where a smaller figure is better (latency): the column then reads "Longhaul ÷ peer, lower is better". */
  lowerIsBetter?: boolean;
}

/** A table with one row per figure and one column per peer, each cell Longhaul ÷ that peer. */
export function comparisonTable(figures: readonly ComparedFigure[], peerNames: readonly string[]): Table {
  return {
    columns: ['Longhaul ÷ peer', ...peerNames],
    rows: figures.map((f) => [
      `${f.what}${f.lowerIsBetter ? ' (lower is better)' : ''}`,
      ...peerNames.map((name) => {
        const ratio = longhaulOverPeer(f.longhaul, f.peers.find((p) => p.name === name)?.figure);
        return ratio ? formatRatio(ratio) : NOT_MEASURED;
      }),
    ]),
  };
}
