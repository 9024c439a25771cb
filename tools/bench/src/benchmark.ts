// What a benchmark is to the runner (`bench.ts`) and the report writer (`report.writer.ts`):
// a module that measures one thing and returns tables, targets and findings as data. It prints
// progress as it goes, but never formats the report itself.

/** What every benchmark gets from the runner. */
export interface BenchmarkContext {
  /** Repetitions of each measured variant (`--reps`). @defaultValue {@link DEFAULT_REPETITIONS} */
  repetitions: number;
  /** Aborted on SIGINT/SIGTERM: stop, clean up, return. */
  signal: AbortSignal;
  /** One progress line on stderr (stdout carries the tables only). */
  log: (line: string) => void;
}

/**
 * Five: on a shared 2-core VM two identical encodes differ by up to a fifth, so three pairs let
 * one outlier decide the median; five still keep the media suite under ten minutes there.
 */
export const DEFAULT_REPETITIONS = 5;

/** A plain table; cells are already formatted. */
export interface Table {
  columns: string[];
  rows: string[][];
}

/** A goal a benchmark checks, and whether the run met it. */
export interface TargetCheck {
  /** What is judged, e.g. `executor ÷ by hand (median)`. */
  name: string;
  /** The goal as written, e.g. `≤ 1.10`. */
  target: string;
  /** The figure the verdict is based on, formatted. */
  measured: string;
  /** Null when it could not be measured in this run. */
  met: boolean | null;
  /** Why the verdict should not be trusted this time (a busy machine, runs that disagree), shown beside it. */
  caveat?: string;
}

/** What one benchmark measured. */
export interface BenchmarkResult {
  id: string;
  title: string;
  /** Markdown paragraphs: what runs, how it is timed or sampled. */
  method: string[];
  tables: Array<{ caption: string; table: Table }>;
  targets: TargetCheck[];
  /** Markdown paragraphs: what the figures show, above all when a target is missed. */
  findings: string[];
  /**
   * Images shown after the tables (`![caption](file)`); `file` relative to the workspace root,
   * e.g. `docs/benchmarks/charts/submit-throughput.png` (see `charts/bar.chart.ts`).
   */
  charts?: Array<{ caption: string; file: string }>;
  /** Set when nothing could be measured; says why. */
  skipped?: string;
}

/** One benchmark module (`*.bench.ts`). */
export interface Benchmark {
  /** Used on the command line: `npm run bench -- upload-memory`. */
  id: string;
  title: string;
  run(context: BenchmarkContext): Promise<BenchmarkResult>;
}

/** Benchmarks reported together in one Markdown file. */
export interface BenchmarkSuite {
  /** Used on the command line: `npm run bench -- media`. */
  name: string;
  title: string;
  /** Relative to the workspace root. */
  reportPath: string;
  benchmarks: Benchmark[];
}
