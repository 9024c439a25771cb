import type { BenchmarkResult } from './benchmark';
import { chartLink, renderMarkdown, type SuiteRun } from './report.writer';

function run(result: BenchmarkResult): SuiteRun {
  return {
    suite: { name: 'throughput', title: 'Throughput', reportPath: 'docs/benchmarks/throughput.md', benchmarks: [] },
    machine: { cores: 2, cpuModel: 'cpu', memoryBytes: 2 ** 30, kernel: 'Linux', ffmpeg: 'ffmpeg', node: 'v24', date: '2025-01-01T00:00:00Z', loadAtStart: 0.5 },
    results: [result],
    notRun: [],
    durationMs: 1000,
    loadAtEnd: 0.5,
  };
}

describe('chartLink', () => {
  it('links a chart relative to the report', () => {
    expect(chartLink('docs/benchmarks/throughput.md', 'docs/benchmarks/charts/submit.png')).toBe('charts/submit.png');
    expect(chartLink('docs/benchmarks/throughput.md', 'docs/other/x.png')).toBe('../other/x.png');
  });
});

describe('renderMarkdown', () => {
  const result: BenchmarkResult = {
    id: 'submit',
    title: 'Submit',
    method: ['How.'],
    tables: [{ caption: 'Figures', table: { columns: ['a'], rows: [['1']] } }],
    targets: [],
    findings: ['What it shows.'],
    charts: [{ caption: 'Accepted jobs/s', file: 'docs/benchmarks/charts/submit-throughput.png' }],
  };

  it('embeds each chart after the tables and before the findings', () => {
    const markdown = renderMarkdown(run(result));
    const image = markdown.indexOf('![Accepted jobs/s](charts/submit-throughput.png)');
    expect(image).toBeGreaterThan(markdown.indexOf('**Figures**'));
    expect(image).toBeLessThan(markdown.indexOf('What it shows.'));
  });

  it('renders a result without charts as before', () => {
    expect(renderMarkdown(run({ ...result, charts: undefined }))).not.toContain('![');
  });
});
