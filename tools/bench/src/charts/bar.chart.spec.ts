import { axisMaximum, defaultFormat, escapeXml, niceCeiling, renderBarChartSvg, type BarChartSpec } from './bar.chart';

/** The `<rect class="bar">` elements of an SVG, with their geometry. */
function bars(svg: string): Array<{ series: number; group: number; x: number; y: number; width: number; height: number }> {
  const found = [...svg.matchAll(/<rect class="bar" data-series="(\d+)" data-group="(\d+)" x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)"/g)];
  return found.map((m) => ({ series: Number(m[1]), group: Number(m[2]), x: Number(m[3]), y: Number(m[4]), width: Number(m[5]), height: Number(m[6]) }));
}

const twoSeries: BarChartSpec = {
  title: 'Throughput',
  yLabel: 'per second',
  series: ['submit', 'insert'],
  groups: [
    { label: '1', bars: [{ value: 100 }, { value: 400 }] },
    { label: '16', bars: [{ value: 200, min: 150, max: 250 }, null] },
  ],
};

describe('niceCeiling', () => {
  it.each([
    [0.7, 1],
    [1, 1],
    [1.2, 2],
    [2.2, 2.5],
    [3, 5],
    [7, 10],
    [4200, 5000],
    [0.031, 0.05],
  ])('%s → %s', (value, expected) => expect(niceCeiling(value)).toBeCloseTo(expected, 9));

  it('is 1 for zero, negative and non-finite values', () => {
    expect([0, -5, Number.NaN, Number.POSITIVE_INFINITY].map(niceCeiling)).toEqual([1, 1, 1, 1]);
  });
});

describe('axisMaximum', () => {
  it('covers whiskers and the reference line', () => {
    expect(axisMaximum({ groups: [{ label: 'a', bars: [{ value: 40, max: 60 }] }] })).toBe(100);
    expect(axisMaximum({ groups: [{ label: 'a', bars: [{ value: 4 }] }], reference: { value: 10, label: 'target' } })).toBe(10);
  });
});

describe('renderBarChartSvg', () => {
  it('draws one bar per figure, with heights proportional to the values and a common baseline', () => {
    const drawn = bars(renderBarChartSvg(twoSeries));
    expect(drawn).toHaveLength(3);
    const [a, b, c] = drawn;
    expect(b!.height / a!.height).toBeCloseTo(4, 1);
    expect(c!.height / a!.height).toBeCloseTo(2, 1);
    for (const bar of drawn) expect(bar.y + bar.height).toBeCloseTo(a!.y + a!.height, 1);
  });

  it('gives the tallest bar the share of the plot its value has of the axis maximum', () => {
    const drawn = bars(renderBarChartSvg({ ...twoSeries, height: 420 }));
    // 400 on an axis to 500 fills four fifths of the 420 − 64 − 48 px plot.
    expect(drawn[1]!.height).toBeCloseTo((400 / 500) * (420 - 64 - 48), 0);
  });

  it('places the series of a group side by side and the groups left to right', () => {
    const [a, b, c] = bars(renderBarChartSvg(twoSeries));
    expect(b!.x).toBeGreaterThan(a!.x);
    expect(c!.x).toBeGreaterThan(b!.x);
    expect([a!.group, b!.group, c!.group]).toEqual([0, 0, 1]);
  });

  it('draws a min–max whisker only where a range is given, spanning it', () => {
    const svg = renderBarChartSvg(twoSeries);
    const whiskers = [...svg.matchAll(/<g class="whisker" data-series="(\d+)" data-group="(\d+)"[^>]*><line x1="[\d.]+" y1="([\d.]+)" x2="[\d.]+" y2="([\d.]+)"\/>/g)];
    expect(whiskers).toHaveLength(1);
    const [, series, group, low, high] = whiskers[0]!.map(Number);
    expect([series, group]).toEqual([0, 1]);
    const bar = bars(svg).find((b) => b.group === 1)!;
    const baseline = bar.y + bar.height;
    // 150 and 250 on the same scale as the bar of 200.
    expect((baseline - low!) / bar.height).toBeCloseTo(0.75, 1);
    expect((baseline - high!) / bar.height).toBeCloseTo(1.25, 1);
  });

  it('labels values, groups, series, the axis and the reference line', () => {
    const svg = renderBarChartSvg({ ...twoSeries, reference: { value: 300, label: 'target ≥ 300' }, format: (v) => `${v}/s` });
    expect(svg).toContain('>100/s</text>');
    expect(svg).toContain('>400/s</text>');
    expect(svg).toContain('class="group"');
    expect(svg).toContain('>submit</text>');
    expect(svg).toContain('>insert</text>');
    expect(svg).toContain('>per second</text>');
    expect(svg).toContain('class="reference"');
    expect(svg).toContain('target ≥ 300');
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
  });

  it('escapes text', () => {
    const svg = renderBarChartSvg({ ...twoSeries, title: 'p99 <10 ms & "fast"' });
    expect(svg).toContain('p99 &lt;10 ms &amp; &quot;fast&quot;');
    expect(escapeXml('<&>')).toBe('&lt;&amp;&gt;');
  });
});

describe('defaultFormat', () => {
  it('keeps three significant digits below 100 and whole numbers above', () => {
    expect([0, 0.01234, 12.345, 99.94, 1234.6].map(defaultFormat)).toEqual(['0', '0.0123', '12.3', '99.9', '1235']);
  });
});
