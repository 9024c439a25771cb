/** One sample line of the Prometheus text format. */
export interface MetricSample {
  /** The sample's own name: `x_bucket`, `x_sum`, `x_count` for a histogram `x`. */
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of one metric, with what its `# HELP` and `# TYPE` lines said. */
export interface MetricFamily {
  name: string;
  type: string;
  help: string;
  samples: MetricSample[];
}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const SUFFIXES: Record<string, readonly string[]> = { histogram: ['_bucket', '_sum', '_count'], summary: ['_sum', '_count'] };

/**
 * Parses the Prometheus text exposition format 0.0.4 strictly, so a test can tell that what a
 * service serves would be scraped: every line is a comment or a well-formed sample, names and
 * label names are valid, values are numbers (`NaN`, `+Inf`, `-Inf` included, in any case), and no series
 * appears twice. Throws naming the first line that is not.
 */
export function parsePrometheusText(text: string): Map<string, MetricFamily> {
  const families = new Map<string, MetricFamily>();
  const seen = new Set<string>();
  const family = (name: string): MetricFamily => {
    let found = families.get(name);
    if (!found) {
      found = { name, type: 'untyped', help: '', samples: [] };
      families.set(name, found);
    }
    return found;
  };
  text.split('\n').forEach((raw, index) => {
    const line = raw.trim();
    const fail = (why: string): never => {
      throw new Error(`line ${index + 1}: ${why}: ${raw}`);
    };
    if (line === '') return;
    if (line.startsWith('#')) {
      const [, keyword, name, ...rest] = line.split(/\s+/);
      if (keyword === 'HELP' || keyword === 'TYPE') {
        if (!name || !METRIC_NAME.test(name)) fail('bad metric name');
        if (keyword === 'HELP') family(name!).help = rest.join(' ');
        else family(name!).type = rest[0] ?? fail('TYPE without a type');
      }
      return;
    }
    const sample = parseSample(line) ?? fail('not a sample');
    const key = `${sample.name}${JSON.stringify(Object.entries(sample.labels).sort())}`;
    if (seen.has(key)) fail('series repeated');
    seen.add(key);
    family(familyOf(sample.name, families)).samples.push(sample);
  });
  return families;
}

/** The value of the one sample of `name` whose labels include `labels`, or undefined. */
export function sampleValue(families: Map<string, MetricFamily>, name: string, labels: Record<string, string> = {}): number | undefined {
  return samplesOf(families, name, labels)[0]?.value;
}

/** Every sample of `name` whose labels include `labels`. */
export function samplesOf(families: Map<string, MetricFamily>, name: string, labels: Record<string, string> = {}): MetricSample[] {
  return [...families.values()]
    .flatMap((f) => f.samples)
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
}

function familyOf(sampleName: string, families: Map<string, MetricFamily>): string {
  for (const [name, known] of families) {
    if (sampleName === name) return name;
    if ((SUFFIXES[known.type] ?? []).some((suffix) => sampleName === `${name}${suffix}`)) return name;
  }
  return sampleName;
}

function parseSample(line: string): MetricSample | null {
  const name = /^[a-zA-Z_:][a-zA-Z0-9_:]*/.exec(line)?.[0];
  if (!name) return null;
  let rest = line.slice(name.length);
  const labels: Record<string, string> = {};
  if (rest.startsWith('{')) {
    rest = rest.slice(1);
    while (!rest.startsWith('}')) {
      const match = /^\s*([^=\s]+)\s*=\s*"((?:[^"\\]|\\.)*)"\s*,?/.exec(rest);
      if (!match || !LABEL_NAME.test(match[1]!) || match[1]! in labels) return null;
      labels[match[1]!] = match[2]!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
      rest = rest.slice(match[0].length);
      if (rest === '') return null;
    }
    rest = rest.slice(1);
  }
  const parts = rest.trim().split(/\s+/);
  if (parts.length < 1 || parts.length > 2 || parts[0] === '') return null;
  const value = parseValue(parts[0]!);
  if (value === null || (parts[1] !== undefined && !/^-?\d+$/.test(parts[1]))) return null;
  return { name, labels, value };
}

/** A value as Prometheus reads it (Go's `ParseFloat`: `NaN` and `Inf` in any case; prom-client writes `Nan`). */
function parseValue(text: string): number | null {
  const special = text.toLowerCase();
  if (special === 'nan') return Number.NaN;
  if (special === '+inf' || special === 'inf' || special === '+infinity' || special === 'infinity') return Number.POSITIVE_INFINITY;
  if (special === '-inf' || special === '-infinity') return Number.NEGATIVE_INFINITY;
  const value = Number(text);
  return /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text) && Number.isFinite(value) ? value : null;
}
