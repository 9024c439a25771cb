import { join } from 'node:path';
import { workspaceRoot } from '@longhaul/testing';
import { writeBarChartPng, type BarChartSpec, type BarValue } from '../charts/bar.chart';
import type { Summary } from '../stats';
import type { ConcurrencyFigures } from './load-run';

/** Where the suite's charts go, relative to the workspace root. */
export const CHARTS_DIR = 'docs/benchmarks/charts';
/** The submit latency goal, drawn across the latency chart. */
export const SUBMIT_P99_TARGET_MS = 10;

/** A chart as a result lists it. */
export interface ChartFile {
  caption: string;
  file: string;
}

const bar = (summary: Summary | undefined): BarValue | null =>
  summary && !Number.isNaN(summary.median) ? { value: summary.median, min: summary.min, max: summary.max } : null;

/**
 * The two charts of the submit figures, beside the ceiling's where it ran: rates per
 * concurrency, and p50/p99 latency per concurrency with the p99 goal drawn across. Pure.
 */
export function throughputChartSpecs(submit: readonly ConcurrencyFigures[], ceiling: readonly ConcurrencyFigures[] | undefined): { rate: BarChartSpec; latency: BarChartSpec } {
  const ceilingAt = (connections: number) => ceiling?.find((f) => f.connections === connections);
  const label = (f: ConcurrencyFigures) => `${f.connections} conn.`;
  const rate: BarChartSpec = {
    title: 'Durable accepts per second, median and min–max',
    yLabel: 'per second',
    series: ceiling ? ['Longhaul: POST /v1/jobs answered 202', 'Postgres: bare INSERT transactions'] : ['Longhaul: POST /v1/jobs answered 202'],
    groups: submit.map((f) => ({ label: label(f), bars: ceiling ? [bar(f.perSecond), bar(ceilingAt(f.connections)?.perSecond)] : [bar(f.perSecond)] })),
    format: (v) => Math.round(v).toString(),
  };
  const latency: BarChartSpec = {
    title: 'Latency of a durable accept: median and min–max of each run’s percentile',
    yLabel: 'milliseconds',
    series: ceiling ? ['submit p50', 'submit p99', 'INSERT p50', 'INSERT p99'] : ['submit p50', 'submit p99'],
    groups: submit.map((f) => {
      const c = ceilingAt(f.connections);
      return { label: label(f), bars: [bar(f.p50Ms), bar(f.p99Ms), ...(ceiling ? [bar(c?.p50Ms), bar(c?.p99Ms)] : [])] };
    }),
    reference: { value: SUBMIT_P99_TARGET_MS, label: `goal: submit p99 ≤ ${SUBMIT_P99_TARGET_MS} ms at 16 conn.` },
  };
  return { rate, latency };
}

/** Writes both charts as PNGs under {@link CHARTS_DIR} and lists them for the result. */
export async function writeThroughputCharts(submit: readonly ConcurrencyFigures[], ceiling: readonly ConcurrencyFigures[] | undefined): Promise<ChartFile[]> {
  const specs = throughputChartSpecs(submit, ceiling);
  const files: ChartFile[] = [
    { caption: ceiling ? 'Accepted submits and bare INSERT commits per second' : 'Accepted submits per second', file: `${CHARTS_DIR}/throughput-submit-rate.png` },
    { caption: ceiling ? 'Submit and bare INSERT latency, p50 and p99' : 'Submit latency, p50 and p99', file: `${CHARTS_DIR}/throughput-submit-latency.png` },
  ];
  await writeBarChartPng(specs.rate, join(workspaceRoot(), files[0]!.file));
  await writeBarChartPng(specs.latency, join(workspaceRoot(), files[1]!.file));
  return files;
}
