import { cpuUse, statTicks, type CpuReading } from './cpu-usage.meter';

describe('statTicks', () => {
  it('adds utime and stime, also when the command name holds spaces and parentheses', () => {
    // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime …
    const line = '4242 (node (api) x) S 1 4242 4242 0 -1 4194560 100 0 0 0 250 50 0 0 20 0 11 0';
    expect(statTicks(line)).toBe(300);
  });
});

describe('cpuUse', () => {
  const reading = (at: number, service: number, machine: number, postgres: Array<[number, number]>, self = 0): CpuReading => ({
    at,
    machine,
    service,
    postgres: new Map(postgres),
    self,
  });

  it('turns ticks over the interval into cores', () => {
    // 2 s apart: 200 ticks of the service is one core; 300 of the machine, 1.5 cores.
    const use = cpuUse(reading(0, 100, 1000, [[1, 10]], 5), reading(2000, 300, 1300, [[1, 110]], 45), 2);
    expect(use).toMatchObject({ service: 1, postgres: 0.5, self: 0.2, machine: 1.5, cores: 2 });
  });

  it('leaves to the other processes what the machine used beyond the three measured, never less than nothing', () => {
    const busy = cpuUse(reading(0, 0, 0, [[1, 0]], 0), reading(1000, 50, 180, [[1, 40]], 10), 2);
    expect(busy.others).toBeCloseTo(0.8, 9);
    // Ticks are read at slightly different moments: a small negative rest is 0.
    expect(cpuUse(reading(0, 0, 0, [[1, 0]]), reading(1000, 100, 90, [[1, 0]]), 2).others).toBe(0);
  });

  it('counts a Postgres backend that started in between from zero', () => {
    const use = cpuUse(reading(0, 0, 0, [[1, 10]]), reading(1000, 0, 0, [[1, 20], [2, 30]]), 2);
    expect(use.postgres).toBeCloseTo(0.4, 9);
  });
});
