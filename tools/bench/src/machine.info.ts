import { execFileSync } from 'node:child_process';
import { cpus, loadavg, release, totalmem } from 'node:os';

/** The machine a report was measured on. */
export interface MachineInfo {
  cores: number;
  cpuModel: string;
  memoryBytes: number;
  kernel: string;
  ffmpeg: string;
  node: string;
  /** ISO timestamp of the start of the run. */
  date: string;
  /** 1-minute load average at the start: other work on the machine skews every figure. */
  loadAtStart: number;
}

/** Reads the machine's description; ffmpeg's version from `ffmpeg -version`. */
export function readMachineInfo(ffmpegPath = 'ffmpeg'): MachineInfo {
  let ffmpeg = 'not found';
  try {
    ffmpeg = execFileSync(ffmpegPath, ['-version'], { encoding: 'utf8', timeout: 10_000 }).split('\n')[0]!.replace(/ Copyright.*$/, '').trim();
  } catch {
    // Reported as "not found"; the media benchmarks then fail with their own error.
  }
  return {
    cores: cpus().length,
    cpuModel: cpus()[0]?.model.trim() ?? 'unknown',
    memoryBytes: totalmem(),
    kernel: `Linux ${release()}`,
    ffmpeg,
    node: process.version,
    date: new Date().toISOString(),
    loadAtStart: loadavg()[0]!,
  };
}

/** The 1-minute load average now. */
export function currentLoad(): number {
  return loadavg()[0]!;
}
