/**
 * Progress on stderr: on a terminal, one bar per thing (the upload, each step) redrawn in place
 * with ANSI cursor moves; anywhere else (a pipe, a CI log) plain lines, written only when a
 * status changes or the progress crosses a tenth, so logs stay short.
 */
import { formatPercent } from './units.format.mts';

/** The stream the display writes to; `isTTY` and `columns` are what `process.stderr` offers. */
export interface DisplayStream {
  write(chunk: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export interface BarState {
  label: string;
  /** 0..1, or null while unknown (shown as an empty bar without a percentage). */
  fraction: number | null;
  /** A status change is always shown at once; plain output prints a line for it. */
  status: string;
  /** Shown beside the status; changes alone do not force a plain line. */
  detail?: string;
}

/** Fastest terminal redraw for changes that are only progress. */
const REDRAW_EVERY_MS = 100;
const CURSOR_UP_AND_HOME = (lines: number): string => `\x1b[${lines}A\r`;
const CLEAR_LINE = '\x1b[2K';
const CLEAR_BELOW = '\x1b[J';

export class ProgressDisplay {
  private readonly out: DisplayStream;
  private readonly tty: boolean;
  private readonly now: () => number;
  private readonly bars = new Map<string, BarState>();
  /** Plain mode: the last tenth printed per bar. */
  private readonly printedTenths = new Map<string, number>();
  private drawnLines = 0;
  private lastDrawAt = 0;
  private dirty = false;

  constructor(out: DisplayStream, now: () => number = Date.now) {
    this.out = out;
    this.tty = out.isTTY === true;
    this.now = now;
  }

  set(key: string, state: BarState): void {
    const previous = this.bars.get(key);
    this.bars.set(key, state);
    const statusChanged = previous?.status !== state.status;
    if (!this.tty) {
      const tenth = state.fraction === null ? -1 : Math.floor(state.fraction * 10);
      if (statusChanged || tenth > (this.printedTenths.get(key) ?? -1)) {
        this.printedTenths.set(key, tenth);
        this.out.write(`${plainLine(state)}\n`);
      }
      return;
    }
    if (statusChanged || this.now() - this.lastDrawAt >= REDRAW_EVERY_MS) this.draw();
    else this.dirty = true;
  }

  /** A line of its own, above the bars (which are redrawn below it). */
  log(line: string): void {
    if (!this.tty) {
      this.out.write(`${line}\n`);
      return;
    }
    this.out.write(`${this.drawnLines > 0 ? CURSOR_UP_AND_HOME(this.drawnLines) : ''}${CLEAR_BELOW}${line}\n`);
    this.drawnLines = 0;
    this.draw();
  }

  /** Draws what is pending; the bars stay on screen as the final picture. */
  close(): void {
    if (this.tty && this.dirty) this.draw();
  }

  private draw(): void {
    const labelWidth = Math.max(9, ...[...this.bars.values()].map((bar) => bar.label.length));
    const columns = this.out.columns ?? 80;
    const barWidth = Math.min(30, Math.max(10, columns - labelWidth - 45));
    let frame = this.drawnLines > 0 ? CURSOR_UP_AND_HOME(this.drawnLines) : '';
    for (const bar of this.bars.values()) {
      // Cut to the width: a wrapped line would throw off the count of lines to move back over.
      frame += `${CLEAR_LINE}${ttyLine(bar, labelWidth, barWidth).slice(0, Math.max(1, columns - 1))}\n`;
    }
    this.out.write(`${frame}${CLEAR_BELOW}`);
    this.drawnLines = this.bars.size;
    this.lastDrawAt = this.now();
    this.dirty = false;
  }
}

/** `transcode  [██████░░░░░░]  42%  running  attempt 1, fast lane` */
export function ttyLine(bar: BarState, labelWidth: number, barWidth: number): string {
  const filled = bar.fraction === null ? 0 : Math.round(Math.min(1, Math.max(0, bar.fraction)) * barWidth);
  const percent = bar.fraction === null ? '' : formatPercent(bar.fraction);
  const meter = `[${'█'.repeat(filled)}${'░'.repeat(barWidth - filled)}]`;
  return `${bar.label.padEnd(labelWidth)} ${meter} ${percent.padStart(4)}  ${bar.status}${bar.detail ? `  ${bar.detail}` : ''}`;
}

/** `transcode: running 40% (attempt 1, fast lane)` */
export function plainLine(bar: BarState): string {
  const percent = bar.fraction === null ? '' : ` ${formatPercent(bar.fraction)}`;
  return `${bar.label}: ${bar.status}${percent}${bar.detail ? ` (${bar.detail})` : ''}`;
}
