import { readFileSync, writeFileSync } from 'node:fs';

/** One reading of a process's resident memory. */
export interface MemorySample {
  /** `performance.now()` of the reading. */
  at: number;
  rssBytes: number;
  /** The anonymous part of the RSS (heaps, buffers); the rest is mapped files (the node binary, native addons) and shared memory. */
  anonBytes: number;
}

/** What `/proc/<pid>/status` says about a process's memory, in bytes. */
export interface ProcessMemory {
  /** `VmRSS`: resident now. */
  rssBytes: number;
  /** `VmHWM`: the peak since start or the last {@link resetPeakRss}. */
  hwmBytes: number;
  /** `RssAnon`: the process's own heaps and buffers. */
  anonBytes: number;
  /** `RssFile`: resident pages of mapped files (code of the node binary and native addons), shared with other processes that map them. */
  fileBytes: number;
}

/** Reads a process's memory from `/proc/<pid>/status`. */
export function readProcessMemory(pid: number): ProcessMemory {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(status);
    if (!match) throw new Error(`/proc/${pid}/status has no ${field}`);
    return Number(match[1]) * 1024;
  };
  return { rssBytes: kib('VmRSS'), hwmBytes: kib('VmHWM'), anonBytes: kib('RssAnon'), fileBytes: kib('RssFile') };
}

/**
 * Resets the process's `VmHWM` to its current RSS (`echo 5 > /proc/<pid>/clear_refs`, Linux
 * ≥ 4.0), so the next reading of it is the peak of what came after, not of the process's
 * start-up. Returns false when the kernel refuses (then only sampled peaks are available).
 */
export function resetPeakRss(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/**
 * Reads a process's `VmRSS` every `intervalMs` until stopped. The kernel's own peak (`VmHWM`)
 * catches what falls between two readings; the samples say when the memory was used.
 */
export class ProcessMemorySampler {
  private readonly samples: MemorySample[] = [];
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly pid: number,
    private readonly intervalMs = 100,
  ) {}

  start(): void {
    this.sample();
    this.timer = setInterval(() => this.sample(), this.intervalMs);
  }

  /** Takes a last reading and returns every reading, oldest first. */
  stop(): MemorySample[] {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.sample();
    return this.samples;
  }

  private sample(): void {
    try {
      const { rssBytes, anonBytes } = readProcessMemory(this.pid);
      this.samples.push({ at: performance.now(), rssBytes, anonBytes });
    } catch {
      // The process is gone; the caller finds out from its request.
    }
  }
}
