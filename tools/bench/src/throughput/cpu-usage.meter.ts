import { readdirSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { cpuSnapshot } from '../cpu-contention.meter';

/** USER_HZ: /proc reports CPU time in it, and it is 100 on every common Linux build. */
const TICKS_PER_SECOND = 100;

/** CPU counters at one moment, in clock ticks. */
export interface CpuReading {
  at: number;
  /** Busy ticks of the whole machine. */
  machine: number;
  /** The measured service process. */
  service: number;
  /** Every `postgres` process (server and backends) by pid. */
  postgres: Map<number, number>;
  /** This process: the load generator. */
  self: number;
}

/** Where the CPU went between two readings, in cores (1 = one core busy all the time). */
export interface CpuUse {
  service: number;
  postgres: number;
  self: number;
  /** Every other process: the rest of the stack (Kafka, Kafka Connect, Jaeger …) and whatever else runs on the machine. */
  others: number;
  /** Everything, these four included. */
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

function ticksOf(pid: number | 'self'): number {
  try {
    return statTicks(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return 0; // Gone between listing and reading.
  }
}

/** The pids whose command is `postgres`. */
function postgresPids(): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === 'postgres') pids.push(Number(entry));
    } catch {
      // Exited while listing.
    }
  }
  return pids;
}

/** Reads the counters of the machine, `servicePid`, Postgres and this process. */
export function readCpu(servicePid: number): CpuReading {
  const postgres = new Map(postgresPids().map((pid) => [pid, ticksOf(pid)]));
  return { at: performance.now(), machine: cpuSnapshot().machineBusy, service: ticksOf(servicePid), postgres, self: ticksOf('self') };
}

/**
 * CPU used between two readings, in cores. A Postgres backend that started in between counts
 * from zero; one that ended in between is missed (the pools keep theirs open).
 */
export function cpuUse(start: CpuReading, end: CpuReading, cores = cpus().length): CpuUse {
  const seconds = (end.at - start.at) / 1000;
  const toCores = (ticks: number) => (seconds > 0 ? ticks / TICKS_PER_SECOND / seconds : 0);
  let postgres = 0;
  for (const [pid, ticks] of end.postgres) postgres += ticks - (start.postgres.get(pid) ?? 0);
  const use = {
    service: toCores(end.service - start.service),
    postgres: toCores(postgres),
    self: toCores(end.self - start.self),
    machine: toCores(end.machine - start.machine),
  };
  return { ...use, others: Math.max(0, use.machine - use.service - use.postgres - use.self), cores };
}
