// Bar and grouped-bar charts for the benchmark reports: an SVG built as a string (pure, so its
// geometry is unit-tested), then rasterised to PNG with sharp, because GitHub's Markdown shows a
// PNG the same everywhere while an SVG's text depends on the viewer's fonts.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import sharp from 'sharp';

/** One bar: the median, and optionally the range of the repetitions drawn as a whisker. */
export interface BarValue {
  value: number;
  min?: number;
  max?: number;
}

/** Bars that share an x position, one per series (null where a series has no figure). */
export interface BarGroup {
  label: string;
  bars: Array<BarValue | null>;
}

/** What a chart shows. */
export interface BarChartSpec {
  title: string;
  /** The unit of the y axis, e.g. `jobs/s`. */
  yLabel: string;
  /** One name per bar of a group; a single series draws a plain bar chart. */
  series: string[];
  groups: BarGroup[];
  /** A horizontal line across the plot, e.g. a target. */
  reference?: { value: number; label: string };
  /** How values print above the bars and on the axis. @defaultValue up to 3 significant digits */
  format?: (value: number) => string;
  /** @defaultValue 800 */
  width?: number;
  /** @defaultValue 420 */
  height?: number;
}

/** Colour-blind-safe (Okabe–Ito), in series order. */
export const SERIES_COLOURS = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#56B4E9', '#F0E442'];

/** The reference line's colour: apart from every series colour. */
const REFERENCE_COLOUR = '#D55E00';
/** Space around the plot, in px: title and legend above, tick labels left, group labels below. */
const MARGIN = { top: 64, right: 24, bottom: 48, left: 72 } as const;
/** Share of a group's width its bars fill; the rest separates groups. */
const GROUP_FILL = 0.8;
const TICKS = 5;

/**
 * The smallest "nice" number (1, 2, 2.5 or 5 times a power of ten) at or above `value`, so axis
 * ticks fall on round figures. 1 for anything not positive.
 */
export function niceCeiling(value: number): number {
  if (!(value > 0) || !Number.isFinite(value)) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  const fraction = value / power;
  const nice = [1, 2, 2.5, 5, 10].find((step) => fraction <= step * (1 + 1e-9))!;
  return nice * power;
}

/** The axis maximum: every bar, whisker and the reference line fit under it. */
export function axisMaximum(spec: Pick<BarChartSpec, 'groups' | 'reference'>): number {
  const tops = spec.groups.flatMap((g) => g.bars.flatMap((b) => (b ? [b.value, b.max ?? b.value] : [])));
  if (spec.reference) tops.push(spec.reference.value);
  return niceCeiling(Math.max(0, ...tops));
}

/** `1234` → `1234`, `12.345` → `12.3`, `0.01234` → `0.0123`. */
export function defaultFormat(value: number): string {
  if (value === 0) return '0';
  if (Math.abs(value) >= 100) return Math.round(value).toString();
  return Number(value.toPrecision(3)).toString();
}

/** The chart as a standalone SVG document. */
export function renderBarChartSvg(spec: BarChartSpec): string {
  const width = spec.width ?? 800;
  const height = spec.height ?? 420;
  const format = spec.format ?? defaultFormat;
  const plot = { x: MARGIN.left, y: MARGIN.top, w: width - MARGIN.left - MARGIN.right, h: height - MARGIN.top - MARGIN.bottom };
  const yMax = axisMaximum(spec);
  const yOf = (value: number) => plot.y + plot.h - (Math.max(0, value) / yMax) * plot.h;
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="DejaVu Sans, Liberation Sans, sans-serif">`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text class="title" x="${MARGIN.left}" y="24" font-size="16" font-weight="bold" fill="#222">${escapeXml(spec.title)}</text>`,
  ];

  // Axis, gridlines and tick labels.
  for (let i = 0; i <= TICKS; i++) {
    const value = (yMax / TICKS) * i;
    const y = round(yOf(value));
    out.push(`<line class="grid" x1="${plot.x}" y1="${y}" x2="${plot.x + plot.w}" y2="${y}" stroke="${i === 0 ? '#444' : '#e3e3e3'}" stroke-width="1"/>`);
    out.push(`<text class="tick" x="${plot.x - 8}" y="${y + 4}" font-size="12" text-anchor="end" fill="#444">${escapeXml(format(value))}</text>`);
  }
  out.push(`<line class="axis" x1="${plot.x}" y1="${plot.y}" x2="${plot.x}" y2="${plot.y + plot.h}" stroke="#444" stroke-width="1"/>`);
  const yLabelX = 16;
  const yLabelY = plot.y + plot.h / 2;
  out.push(`<text class="y-label" x="${yLabelX}" y="${yLabelY}" font-size="12" text-anchor="middle" fill="#444" transform="rotate(-90 ${yLabelX} ${yLabelY})">${escapeXml(spec.yLabel)}</text>`);

  // Bars, whiskers and value labels, group by group.
  const groupWidth = plot.w / Math.max(1, spec.groups.length);
  const barWidth = (groupWidth * GROUP_FILL) / Math.max(1, spec.series.length);
  spec.groups.forEach((group, g) => {
    const groupX = plot.x + g * groupWidth + (groupWidth * (1 - GROUP_FILL)) / 2;
    group.bars.forEach((bar, s) => {
      if (!bar) return;
      const x = groupX + s * barWidth;
      const top = yOf(bar.value);
      const colour = SERIES_COLOURS[s % SERIES_COLOURS.length]!;
      out.push(
        `<rect class="bar" data-series="${s}" data-group="${g}" x="${round(x + 1)}" y="${round(top)}" width="${round(barWidth - 2)}" height="${round(plot.y + plot.h - top)}" fill="${colour}"/>`,
      );
      const centre = round(x + barWidth / 2);
      let labelY = top;
      if (bar.min !== undefined && bar.max !== undefined) {
        const [low, high] = [round(yOf(bar.min)), round(yOf(bar.max))];
        const cap = Math.min(8, barWidth / 4);
        out.push(
          `<g class="whisker" data-series="${s}" data-group="${g}" stroke="#222" stroke-width="1.5">` +
            `<line x1="${centre}" y1="${low}" x2="${centre}" y2="${high}"/>` +
            `<line x1="${round(centre - cap)}" y1="${low}" x2="${round(centre + cap)}" y2="${low}"/>` +
            `<line x1="${round(centre - cap)}" y1="${high}" x2="${round(centre + cap)}" y2="${high}"/></g>`,
        );
        labelY = Math.min(labelY, high);
      }
      out.push(`<text class="value" x="${centre}" y="${round(labelY - 5)}" font-size="11" text-anchor="middle" fill="#222">${escapeXml(format(bar.value))}</text>`);
    });
    out.push(
      `<text class="group" x="${round(plot.x + g * groupWidth + groupWidth / 2)}" y="${plot.y + plot.h + 20}" font-size="13" text-anchor="middle" fill="#222">${escapeXml(group.label)}</text>`,
    );
  });

  if (spec.reference) {
    const y = round(yOf(spec.reference.value));
    out.push(`<line class="reference" x1="${plot.x}" y1="${y}" x2="${plot.x + plot.w}" y2="${y}" stroke="${REFERENCE_COLOUR}" stroke-width="1.5" stroke-dasharray="6 4"/>`);
  }

  // Legend in a row under the title: one entry per series, then the reference line's, which
  // would otherwise have to be written across the bars.
  let legendX = MARGIN.left;
  spec.series.forEach((name, s) => {
    const colour = SERIES_COLOURS[s % SERIES_COLOURS.length]!;
    out.push(`<rect class="legend" x="${legendX}" y="38" width="12" height="12" fill="${colour}"/>`);
    out.push(`<text x="${legendX + 17}" y="48" font-size="12" fill="#222">${escapeXml(name)}</text>`);
    legendX += 17 + 7.2 * name.length + 24;
  });
  if (spec.reference) {
    out.push(`<line class="legend-reference" x1="${legendX}" y1="44" x2="${legendX + 18}" y2="44" stroke="${REFERENCE_COLOUR}" stroke-width="1.5" stroke-dasharray="6 4"/>`);
    out.push(`<text class="reference-label" x="${legendX + 23}" y="48" font-size="12" fill="${REFERENCE_COLOUR}">${escapeXml(spec.reference.label)}</text>`);
  }
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}

/**
 * Renders `spec` and writes it as a PNG at `path` (folders created), at twice the SVG's pixel
 * size so it stays sharp on high-density screens.
 */
export async function writeBarChartPng(spec: BarChartSpec, path: string): Promise<void> {
  mkdirSync(dirname(path), { recursive: true });
  await sharp(Buffer.from(renderBarChartSvg(spec)), { density: 144 }).png().toFile(path);
}

export function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}
