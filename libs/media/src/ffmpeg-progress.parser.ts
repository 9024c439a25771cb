/** One block of `-progress` output: how far the output is, and whether ffmpeg is done. */
export interface FfmpegProgress {
  /** Seconds of output written so far; null until ffmpeg knows (`N/A`). */
  outTimeSeconds: number | null;
  /** True on the last block (`progress=end`). */
  done: boolean;
}

/**
 * Reads ffmpeg's `-progress pipe:1 -nostats` output, fed in chunks as they arrive (a line may be
 * split across chunks). ffmpeg writes `key=value` lines and ends each block with
 * `progress=continue` or `progress=end`; the position is `out_time_us` (microseconds), else
 * `out_time_ms` (also microseconds, despite its name), else `out_time` (`HH:MM:SS.micro`).
 * No I/O: each finished block is handed to `onBlock`.
 */
export class FfmpegProgressParser {
  private pending = '';
  private block = new Map<string, string>();
  private last: number | null = null;

  constructor(private readonly onBlock: (progress: FfmpegProgress) => void) {}

  /** The last position seen, in seconds (null before any). */
  get outTimeSeconds(): number | null {
    return this.last;
  }

  push(chunk: string): void {
    const lines = (this.pending + chunk).split(/\r?\n/);
    this.pending = lines.pop() ?? '';
    for (const line of lines) this.line(line.trim());
  }

  private line(line: string): void {
    const eq = line.indexOf('=');
    if (eq <= 0) return;
    const key = line.slice(0, eq).trim();
    const value = line.slice(eq + 1).trim();
    if (key !== 'progress') {
      this.block.set(key, value);
      return;
    }
    const seconds = outTimeOf(this.block);
    if (seconds !== null) this.last = Math.max(this.last ?? 0, seconds);
    this.block = new Map();
    this.onBlock({ outTimeSeconds: this.last, done: value === 'end' });
  }
}

/** How far an encode of `durationSeconds` is, from 0 to 1 (1 once done). */
export function progressFraction(progress: FfmpegProgress, durationSeconds: number): number {
  if (progress.done) return 1;
  if (progress.outTimeSeconds === null || !(durationSeconds > 0)) return 0;
  return Math.min(1, Math.max(0, progress.outTimeSeconds / durationSeconds));
}

function outTimeOf(block: Map<string, string>): number | null {
  for (const key of ['out_time_us', 'out_time_ms']) {
    const micro = Number(block.get(key));
    if (block.has(key) && Number.isFinite(micro) && micro >= 0) return micro / 1_000_000;
  }
  const clock = /^(\d+):(\d{2}):(\d{2}(?:\.\d+)?)$/.exec(block.get('out_time') ?? '');
  return clock ? Number(clock[1]) * 3600 + Number(clock[2]) * 60 + Number(clock[3]) : null;
}
