// CPU time of groups of processes over an interval, beside the whole machine's: where the cores
// went while a throughput run saturated them (the services, Postgres, Kafka, Connect, the bench).
// `cpu-usage.meter.ts` measures one service, Postgres and the load generator; this one any named
// set of processes, for runs with the four services and the relay all busy at once.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { cpus, homedir } from 'node:os';
import { join } from 'node:path';
import { cpuSnapshot, type CpuSnapshot } from '../cpu-contention.meter';
import { statTicks } from './cpu-usage.meter';

/** USER_HZ, as `cpu-contention.meter.ts` assumes: 100 on every common Linux build. */
const TICKS_PER_SECOND = 100;

/** A named set of processes, listed afresh at each reading (Postgres backends come and go). */
export interface CpuGroup {
  name: string;
  pids: () => number[];
}

/** A reading of every group's processes (pid → CPU seconds so far) and of the machine. */
export interface CpuReading {
  machine: CpuSnapshot;
  byGroup: Map<string, Map<number, number>>;
}

/** Where the CPU went between two readings, in cores (CPU seconds per second). */
export interface CpuShares {
  /** Busy cores of the whole machine. */
  machineCores: number;
  byGroup: Array<{ name: string; cores: number }>;
  /** The machine's cores. */
  capacity: number;
  /** How long the window was, in seconds. */
  seconds: number;
}

/** `/proc/<pid>/stat` fields after the parenthesised command name (which may hold spaces); null once the process is gone. */
function statFields(pid: number): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/** CPU seconds (user + system) `pid` has used so far, or null once it is gone. */
export function processCpuSeconds(pid: number): number | null {
  try {
    return statTicks(readFileSync(`/proc/${pid}/stat`, 'utf8')) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

export function readCpu(groups: readonly CpuGroup[]): CpuReading {
  const byGroup = new Map<string, Map<number, number>>();
  for (const group of groups) {
    const seconds = new Map<number, number>();
    for (const pid of group.pids()) {
      const used = processCpuSeconds(pid);
      if (used !== null) seconds.set(pid, used);
    }
    byGroup.set(group.name, seconds);
  }
  return { machine: cpuSnapshot(), byGroup };
}

/**
 * The CPU each group and the machine used between `start` and `end`, as cores. A process that
 * started in between counts whole; one that ended in between is missed (so a group's figure is a
 * lower bound when its processes are short-lived).
 */
export function cpuShares(start: CpuReading, end: CpuReading): CpuShares {
  const seconds = (end.machine.at - start.machine.at) / 1000;
  const byGroup: CpuShares['byGroup'] = [];
  for (const [name, after] of end.byGroup) {
    const before = start.byGroup.get(name) ?? new Map<number, number>();
    let used = 0;
    for (const [pid, total] of after) used += total - (before.get(pid) ?? 0);
    byGroup.push({ name, cores: seconds > 0 ? used / seconds : 0 });
  }
  return {
    machineCores: seconds > 0 ? (end.machine.machineBusy - start.machine.machineBusy) / TICKS_PER_SECOND / seconds : 0,
    byGroup,
    capacity: cpus().length,
    seconds,
  };
}

/** A process and its direct children (Postgres: the postmaster and its backends). */
export function withChildren(pid: number): number[] {
  const out = [pid];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const fields = statFields(Number(entry));
    // ppid is the 4th field of the line, the 2nd after the name.
    if (fields && Number(fields[1]) === pid) out.push(Number(entry));
  }
  return out;
}

/**
 * The native stack's processes, from the PID files the infra CLI keeps in
 * `$LONGHAUL_HOME/pids` (default `~/.cache/longhaul`); a component without one is left out.
 */
export function stackCpuGroups(): CpuGroup[] {
  const dir = join(process.env['LONGHAUL_HOME'] || join(homedir(), '.cache', 'longhaul'), 'pids');
  const pidOf = (component: string): number | null => {
    const file = join(dir, `${component}.pid`);
    if (!existsSync(file)) return null;
    const pid = Number(readFileSync(file, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  };
  const groups: CpuGroup[] = [];
  const postgres = pidOf('postgres');
  if (postgres !== null) groups.push({ name: 'Postgres (postmaster and backends)', pids: () => withChildren(postgres) });
  for (const [component, name] of [['kafka', 'Kafka broker'], ['connect', 'Kafka Connect (Debezium)'], ['jaeger', 'Jaeger']] as const) {
    const pid = pidOf(component);
    if (pid !== null) groups.push({ name, pids: () => [pid] });
  }
  return groups;
}
