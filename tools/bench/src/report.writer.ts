import { posix, sep } from 'node:path';
import type { BenchmarkResult, BenchmarkSuite, Table, TargetCheck } from './benchmark';
import type { MachineInfo } from './machine.info';
import { mebibytes, seconds } from './stats';

/** What one run of a suite produced. */
export interface SuiteRun {
  suite: BenchmarkSuite;
  machine: MachineInfo;
  results: BenchmarkResult[];
  /** Benchmarks of the suite left out by the command line's filter. */
  notRun: string[];
  durationMs: number;
  loadAtEnd: number;
}

/** The suite's report as Markdown: machine, targets, then each benchmark's method, tables and findings. */
export function renderMarkdown(run: SuiteRun): string {
  const { machine } = run;
  const out: string[] = [
    `# ${run.suite.title}`,
    '',
    `Written by \`npm run bench -- ${run.suite.name}\` (\`tools/bench\`); rerun it rather than editing this file. Figures are the median with min–max over the repetitions.`,
    '',
    '## Machine',
    '',
    renderTable({
      columns: ['', ''],
      rows: [
        ['date', machine.date],
        ['CPU', `${machine.cores} cores, ${machine.cpuModel}`],
        ['RAM', `${(machine.memoryBytes / 1024 ** 3).toFixed(1)} GiB`],
        ['kernel', machine.kernel],
        ['ffmpeg', machine.ffmpeg],
        ['node', machine.node],
        ['load average (1 min)', `${machine.loadAtStart.toFixed(2)} at start, ${run.loadAtEnd.toFixed(2)} at end`],
        ['run took', seconds(run.durationMs)],
      ],
    }),
    '',
    '## Targets',
    '',
    renderTable(targetsTable(run.results.flatMap((r) => r.targets))),
  ];
  if (run.notRun.length > 0) out.push('', `Not run this time (left out on the command line): ${run.notRun.join(', ')}.`);
  for (const result of run.results) {
    out.push('', `## ${result.title}`, '');
    if (result.skipped) {
      out.push(`**Not measured**: ${result.skipped}`);
      continue;
    }
    for (const paragraph of result.method) out.push(paragraph, '');
    for (const { caption, table } of result.tables) out.push(`**${caption}**`, '', renderTable(table), '');
    for (const { caption, file } of result.charts ?? []) out.push(`![${caption}](${chartLink(run.suite.reportPath, file)})`, '');
    for (const paragraph of result.findings) out.push(paragraph, '');
    while (out[out.length - 1] === '') out.pop();
  }
  return `${out.join('\n')}\n`;
}

/** The same tables as the report, for stdout: targets first, then each benchmark's tables. */
export function renderConsole(run: SuiteRun): string {
  const out = [`${run.suite.title} (${run.machine.cores} cores, ${mebibytes(run.machine.memoryBytes)} RAM, ${run.machine.ffmpeg}, node ${run.machine.node})`, ''];
  out.push(renderTable(targetsTable(run.results.flatMap((r) => r.targets))));
  for (const result of run.results) {
    out.push('', `${result.title}`);
    if (result.skipped) out.push(`  not measured: ${result.skipped}`);
    for (const { caption, table } of result.tables) out.push('', caption, renderTable(table));
  }
  return `${out.join('\n')}\n`;
}

function targetsTable(targets: TargetCheck[]): Table {
  const verdict = (t: TargetCheck) => `${t.met === null ? 'not measured' : t.met ? 'met' : '**missed**'}${t.caveat ? ` (unreliable: ${t.caveat})` : ''}`;
  return { columns: ['target', 'goal', 'measured', 'verdict'], rows: targets.map((t) => [t.name, t.target, t.measured, verdict(t)]) };
}

/** A chart's path as the report links it: relative to the report's folder, with forward slashes. */
export function chartLink(reportPath: string, file: string): string {
  return posix.relative(posix.dirname(reportPath.split(sep).join('/')), file.split(sep).join('/'));
}

/** A Markdown table, padded so it also reads as plain text. */
export function renderTable(table: Table): string {
  const cells = [table.columns, ...table.rows].map((row) => row.map((cell) => cell.replace(/\|/g, '\\|')));
  const widths = table.columns.map((_, i) => Math.max(3, ...cells.map((row) => (row[i] ?? '').length)));
  const line = (row: string[]) => `| ${widths.map((w, i) => (row[i] ?? '').padEnd(w)).join(' | ')} |`;
  return [line(cells[0]!), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...cells.slice(1).map(line)].join('\n');
}
