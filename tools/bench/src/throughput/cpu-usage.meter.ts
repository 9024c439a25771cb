import { readdirSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { cpus } from 'node:os';
import { cpuSnapshot } from '../cpu-contention.meter';

/** USER_HZ: /proc reports CPU time in it, and it is 100 on every common Linux build. */
const TICKS_PER_SECOND = 100;
/** How many of the other processes {@link CpuUse.othersByLabel} names. */
const TOP_OTHERS = 3;

/** One process's CPU counter, with a name a reader recognises. */
interface ProcessTicks {
  label: string;
  ticks: number;
}

/** CPU counters at one moment, in clock ticks. */
export interface CpuReading {
  at: number;
  /** Busy ticks of the whole machine. */
  machine: number;
  /** The measured service process, if there is one. */
  servicePid: number | null;
  /**
   * Its main thread (a Node process's JavaScript thread) from `/proc/<pid>/schedstat`: ns on a
   * core, and ns runnable but waiting for one. Zero where the kernel keeps no schedstats.
   */
  serviceThread: { runNs: number; waitNs: number };
  /** Every process by pid. */
  processes: Map<number, ProcessTicks>;
}

/** Where the CPU went between two readings, in cores (1 = one core busy all the time). */
export interface CpuUse {
  /** The service process (0 without one). */
  service: number;
  /** Every `postgres` process: the server and its backends. */
  postgres: number;
  /** This process: the load generator. */
  self: number;
  /** Share of the interval the service's main thread ran on a core (0–1). */
  threadRunning: number;
  /** Share of the interval it was runnable and waited for a core: work it had but could not do. */
  threadWaiting: number;
  /**
   * The machine's busy time beyond the three above: the rest of the stack (Kafka, Kafka Connect,
   * Jaeger …), processes that started and ended within the interval (an autovacuum worker),
   * kernel work, and anything else on the machine.
   */
  others: number;
  /** The busiest of the other processes that lived through the interval, e.g. `java Kafka`. */
  othersByLabel: Array<{ label: string; cores: number }>;
  /** Everything. */
  machine: number;
  /** Cores the machine has. */
  cores: number;
}

/** `utime + stime` of a `/proc/<pid>/stat` line, in ticks; the command name may hold spaces and parentheses. */
export function statTicks(stat: string): number {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // After the name: state is field 3 of the line, utime 14 and stime 15.
  return Number(fields[11]) + Number(fields[12]);
}

/** `/proc/<pid>/schedstat`: ns on a core, ns waiting on a run queue, time slices. */
export function parseSchedstat(text: string): { runNs: number; waitNs: number } {
  const [run, wait] = text.trim().split(/\s+/).map(Number);
  return { runNs: run ?? 0, waitNs: wait ?? 0 };
}

/**
 * A short name for a process: a Node process (`MainThread`, `node`) by its script — a Longhaul
 * service by its app (`node api`) — a JVM by its main class (`java Kafka`), anything else by its
 * command name.
 */
export function processLabel(comm: string, argv: readonly string[]): string {
  if (comm === 'MainThread' || comm === 'node') {
    // A script by its extension; else the first argument that is not an option (`node_modules/.bin/nx`).
    const script = argv.slice(1).find((arg) => /\.(c|m)?(js|ts)$/.test(arg)) ?? argv.slice(1).find((arg) => !arg.startsWith('-'));
    if (!script) return 'node';
    const app = /apps\/([^/]+)\/src\/[^/]+\.js$/.exec(script)?.[1];
    return `node ${app ?? basename(script)}`;
  }
  if (comm === 'java') {
    const main = argv.slice(1).find((arg) => !arg.startsWith('-') && /^[A-Za-z_][\w$]*(\.[\w$]+)+$/.test(arg));
    return main ? `java ${main.split('.').pop()}` : 'java';
  }
  return comm;
}

function readProcess(pid: number): ProcessTicks | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    let argv: string[] = [];
    try {
      argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    } catch {
      // A kernel thread or a process that just ended: the command name will do.
    }
    return { label: processLabel(comm, argv), ticks: statTicks(stat) };
  } catch {
    return null; // Gone between listing and reading.
  }
}

function schedstatOf(pid: number | null): { runNs: number; waitNs: number } {
  if (pid === null) return { runNs: 0, waitNs: 0 };
  try {
    return parseSchedstat(readFileSync(`/proc/${pid}/schedstat`, 'utf8'));
  } catch {
    return { runNs: 0, waitNs: 0 };
  }
}

/** Reads the counters of the machine and of every process; `servicePid` is the one measured (null for none). */
export function readCpu(servicePid: number | null): CpuReading {
  const processes = new Map<number, ProcessTicks>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const read = readProcess(Number(entry));
    if (read) processes.set(Number(entry), read);
  }
  return { at: performance.now(), machine: cpuSnapshot().machineBusy, servicePid, serviceThread: schedstatOf(servicePid), processes };
}

/**
 * CPU used between two readings, in cores. A process that started in between counts from zero;
 * one that ended in between is missed by its own line and falls into `others`.
 */
export function cpuUse(start: CpuReading, end: CpuReading, cores = cpus().length, selfPid = process.pid): CpuUse {
  const seconds = (end.at - start.at) / 1000;
  const toCores = (ticks: number) => (seconds > 0 ? ticks / TICKS_PER_SECOND / seconds : 0);
  const share = (ns: number) => (seconds > 0 ? Math.min(1, Math.max(0, ns / 1e9 / seconds)) : 0);
  let service = 0;
  let postgres = 0;
  let self = 0;
  const others = new Map<string, number>();
  for (const [pid, now] of end.processes) {
    const used = now.ticks - (start.processes.get(pid)?.ticks ?? 0);
    if (pid === end.servicePid) service += used;
    else if (pid === selfPid) self += used;
    else if (now.label === 'postgres') postgres += used;
    else if (used > 0) others.set(now.label, (others.get(now.label) ?? 0) + used);
  }
  const use = { service: toCores(service), postgres: toCores(postgres), self: toCores(self), machine: toCores(end.machine - start.machine) };
  return {
    ...use,
    threadRunning: share(end.serviceThread.runNs - start.serviceThread.runNs),
    threadWaiting: share(end.serviceThread.waitNs - start.serviceThread.waitNs),
    others: Math.max(0, use.machine - use.service - use.postgres - use.self),
    othersByLabel: [...others]
      .map(([label, ticks]) => ({ label, cores: toCores(ticks) }))
      .sort((a, b) => b.cores - a.cores)
      .slice(0, TOP_OTHERS),
    cores,
  };
}

/** `java Kafka 0.12, node jest.js 0.40`, or `none`. */
export function formatOthers(others: ReadonlyArray<{ label: string; cores: number }>): string {
  const shown = others.filter((o) => o.cores >= 0.01);
  return shown.length > 0 ? shown.map((o) => `${o.label} ${o.cores.toFixed(2)}`).join(', ') : 'none';
}

/** What the other processes did over several runs, for a report's caveat. */
export interface OtherLoad {
  /** Runs whose `others` exceeded the threshold. */
  runs: number;
  minCores: number;
  maxCores: number;
  /** The named processes that used the most over those runs, on average per run. */
  busiest: Array<{ label: string; cores: number }>;
}

/** Summarises the runs whose other processes used more than `thresholdCores`; null when none did. */
export function otherLoad(uses: readonly CpuUse[], thresholdCores: number): OtherLoad | null {
  const busy = uses.filter((u) => u.others > thresholdCores);
  if (busy.length === 0) return null;
  const byLabel = new Map<string, number>();
  for (const use of busy) for (const { label, cores } of use.othersByLabel) byLabel.set(label, (byLabel.get(label) ?? 0) + cores);
  return {
    runs: busy.length,
    minCores: Math.min(...busy.map((u) => u.others)),
    maxCores: Math.max(...busy.map((u) => u.others)),
    busiest: [...byLabel]
      .map(([label, cores]) => ({ label, cores: cores / busy.length }))
      .sort((a, b) => b.cores - a.cores)
      .slice(0, TOP_OTHERS),
  };
}

/**
 * `in 2 of 9 runs (0.61–0.97 cores; busiest, per run: node jest.js 0.40, java Kafka 0.05)`.
 */
export function describeOtherLoad(load: OtherLoad, total: number): string {
  const range = load.minCores === load.maxCores ? load.minCores.toFixed(2) : `${load.minCores.toFixed(2)}–${load.maxCores.toFixed(2)}`;
  return `in ${load.runs} of ${total} runs (${range} cores; busiest, per run: ${formatOthers(load.busiest)})`;
}
