import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';

/** CPU counters at one moment, in clock ticks (USER_HZ). */
export interface CpuSnapshot {
  at: number;
  /** Busy ticks of the whole machine (`/proc/stat`: all but idle and iowait). */
  machineBusy: number;
  /** This process and its reaped children (`/proc/self/stat`: utime + stime + cutime + cstime). */
  ours: number;
}

/** USER_HZ: Linux reports both files in it, and it is 100 on every common build. */
const TICKS_PER_SECOND = 100;

export function cpuSnapshot(): CpuSnapshot {
  const [, user, nice, system, , , irq, softirq, steal] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).map(Number);
  // Fields after the parenthesised command name (which may hold spaces): state is field 3, utime 14 … cstime 17.
  const self = readFileSync('/proc/self/stat', 'utf8');
  const fields = self.slice(self.lastIndexOf(')') + 2).split(' ').map(Number);
  const [utime, stime, cutime, cstime] = fields.slice(11, 15);
  return { at: performance.now(), machineBusy: user! + nice! + system! + irq! + softirq! + steal!, ours: utime! + stime! + cutime! + cstime! };
}

/**
 * The share of the machine's CPU (0–1, all cores) that went to processes other than this one
 * and its children between two snapshots: the run's competition. Children count once they have
 * exited, so take `end` after the measured children are gone.
 */
export function othersCpuShare(start: CpuSnapshot, end: CpuSnapshot): number {
  const capacity = ((end.at - start.at) / 1000) * TICKS_PER_SECOND * cpus().length;
  const others = end.machineBusy - start.machineBusy - (end.ours - start.ours);
  return capacity > 0 ? Math.min(1, Math.max(0, others / capacity)) : 0;
}

/** CPU seconds this process and its reaped children used between two snapshots (user + system). */
export function ourCpuSeconds(start: CpuSnapshot, end: CpuSnapshot): number {
  return (end.ours - start.ours) / TICKS_PER_SECOND;
}
