// `npm run bench [-- <suite|benchmark>…] [--reps N]`: runs the benchmarks of `suites.ts` (all, or
// those named), writes each suite's Markdown report and prints the same tables on stdout.
// Progress goes to stderr. Exits 1 when a benchmark failed (its failure is in the report too).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { workspaceRoot } from '@longhaul/testing';
import { DEFAULT_REPETITIONS, type BenchmarkContext, type BenchmarkResult } from './benchmark';
import { currentLoad, readMachineInfo } from './machine.info';
import { renderConsole, renderMarkdown } from './report.writer';
import { SUITES } from './suites';

function parseArgs(argv: string[]): { names: string[]; repetitions: number } {
  const names: string[] = [];
  let repetitions = DEFAULT_REPETITIONS;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const reps = arg === '--reps' ? argv[++i] : arg.startsWith('--reps=') ? arg.slice('--reps='.length) : undefined;
    if (reps !== undefined) {
      repetitions = Number(reps);
      if (!Number.isInteger(repetitions) || repetitions < 1) throw new Error(`--reps must be a whole number ≥ 1, not ${reps}`);
    } else if (arg.startsWith('-')) throw new Error(`unknown option ${arg}`);
    else names.push(arg);
  }
  const known = SUITES.flatMap((s) => [s.name, ...s.benchmarks.map((b) => b.id)]);
  const unknown = names.filter((n) => !known.includes(n));
  if (unknown.length > 0) throw new Error(`unknown benchmark ${unknown.join(', ')}; known: ${known.join(', ')}`);
  return { names, repetitions };
}

async function main(): Promise<void> {
  const { names, repetitions } = parseArgs(process.argv.slice(2));
  const stop = new AbortController();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      console.error(`\n${signal}: stopping after cleanup (again to exit at once) …`);
      stop.abort(new Error(`interrupted by ${signal}`));
      process.once(signal, () => process.exit(130));
    });
  }
  const context: BenchmarkContext = { repetitions, signal: stop.signal, log: (line) => console.error(line) };

  for (const suite of SUITES) {
    const wanted = names.length === 0 || names.includes(suite.name) ? suite.benchmarks : suite.benchmarks.filter((b) => names.includes(b.id));
    if (wanted.length === 0) continue;
    const machine = readMachineInfo();
    const started = performance.now();
    const results: BenchmarkResult[] = [];
    for (const benchmark of wanted) {
      if (stop.signal.aborted) break;
      console.error(`\n▶ ${benchmark.id}: ${benchmark.title}`);
      try {
        results.push(await benchmark.run(context));
      } catch (error) {
        process.exitCode = 1;
        const message = error instanceof Error ? error.message : String(error);
        console.error(`✗ ${benchmark.id} failed: ${message}`);
        results.push({ id: benchmark.id, title: benchmark.title, method: [], tables: [], targets: [], findings: [], skipped: `the benchmark failed: ${message}` });
      }
    }
    const run = {
      suite,
      machine,
      results,
      notRun: suite.benchmarks.filter((b) => !results.some((r) => r.id === b.id)).map((b) => b.id),
      durationMs: performance.now() - started,
      loadAtEnd: currentLoad(),
    };
    const path = join(workspaceRoot(), suite.reportPath);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, renderMarkdown(run));
    console.log(`\n${renderConsole(run)}`);
    console.error(`report written to ${suite.reportPath}`);
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
