import { cpuUse, describeOtherLoad, formatOthers, otherLoad, parseSchedstat, processLabel, statTicks, type CpuReading, type CpuUse } from './cpu-usage.meter';

describe('statTicks', () => {
  it('adds utime and stime, also when the command name holds spaces and parentheses', () => {
    // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime …
    const line = '4242 (node (api) x) S 1 4242 4242 0 -1 4194560 100 0 0 0 250 50 0 0 20 0 11 0';
    expect(statTicks(line)).toBe(300);
  });
});

describe('parseSchedstat', () => {
  it('reads run and wait time in ns', () => {
    expect(parseSchedstat('261634119 104131119 1235\n')).toEqual({ runNs: 261634119, waitNs: 104131119 });
  });
});

describe('processLabel', () => {
  it('names a Longhaul service by its app, another Node process by its script', () => {
    expect(processLabel('MainThread', ['/usr/bin/node', '--enable-source-maps', '/w/dist/apps/api/src/main.js'])).toBe('node api');
    expect(processLabel('MainThread', ['node', 'node_modules/jest/bin/jest.js', '-c', 'x'])).toBe('node jest.js');
    expect(processLabel('node', ['node'])).toBe('node');
    expect(processLabel('MainThread', ['node', '/w/node_modules/.bin/nx', 'run', 'bench:lint'])).toBe('node nx');
  });

  it('names a JVM by its main class, anything else by its command', () => {
    expect(processLabel('java', ['/usr/bin/java', '-Xmx768m', '-cp', '/jars/kafka/*', 'kafka.Kafka', '/state/server.properties'])).toBe('java Kafka');
    expect(processLabel('java', ['/usr/bin/java', '-cp', 'x', 'org.apache.kafka.connect.cli.ConnectDistributed', 'a.properties'])).toBe('java ConnectDistributed');
    expect(processLabel('kworker/1:1H', [])).toBe('kworker/1:1H');
  });
});

describe('cpuUse', () => {
  type Proc = [pid: number, label: string, ticks: number];
  const reading = (at: number, machine: number, procs: Proc[], servicePid: number | null = 10, thread = { runNs: 0, waitNs: 0 }): CpuReading => ({
    at,
    machine,
    servicePid,
    serviceThread: thread,
    processes: new Map(procs.map(([pid, label, ticks]) => [pid, { label, ticks }])),
  });

  it('turns ticks over the interval into cores: the service, Postgres, this process and the rest', () => {
    // 2 s apart: 200 ticks is one core.
    const start = reading(0, 1000, [[10, 'node api', 100], [20, 'postgres', 10], [30, 'node bench.ts', 5], [40, 'java Kafka', 0]]);
    const end = reading(2000, 1500, [[10, 'node api', 300], [20, 'postgres', 110], [30, 'node bench.ts', 45], [40, 'java Kafka', 40]]);
    const use = cpuUse(start, end, 2, 30);
    expect(use).toMatchObject({ service: 1, postgres: 0.5, self: 0.2, machine: 2.5, cores: 2 });
    expect(use.others).toBeCloseTo(0.8, 9);
    expect(use.othersByLabel).toEqual([{ label: 'java Kafka', cores: 0.2 }]);
  });

  it('counts a process that started in between from zero, and has no service without a pid', () => {
    const use = cpuUse(reading(0, 0, [[20, 'postgres', 10]], null), reading(1000, 100, [[20, 'postgres', 20], [21, 'postgres', 30]], null), 2, 1);
    expect(use.postgres).toBeCloseTo(0.4, 9);
    expect(use.service).toBe(0);
  });

  it('gives the shares of the interval the main thread ran and waited for a core', () => {
    const use = cpuUse(reading(0, 0, [], 10, { runNs: 1e9, waitNs: 0 }), reading(2000, 0, [], 10, { runNs: 2.2e9, waitNs: 0.5e9 }), 2, 1);
    expect(use.threadRunning).toBeCloseTo(0.6, 9);
    expect(use.threadWaiting).toBeCloseTo(0.25, 9);
  });

  it('never gives the rest less than nothing (the counters are read at slightly different moments)', () => {
    expect(cpuUse(reading(0, 0, [[10, 'node api', 0]]), reading(1000, 90, [[10, 'node api', 100]]), 2, 1).others).toBe(0);
  });
});

describe('formatOthers', () => {
  it('lists the named processes, or none', () => {
    expect(formatOthers([{ label: 'java Kafka', cores: 0.123 }, { label: 'x', cores: 0.001 }])).toBe('java Kafka 0.12');
    expect(formatOthers([])).toBe('none');
  });
});

describe('otherLoad', () => {
  const use = (others: number, busiest: Array<{ label: string; cores: number }>): CpuUse => ({
    service: 0,
    postgres: 0,
    self: 0,
    threadRunning: 0,
    threadWaiting: 0,
    others,
    othersByLabel: busiest,
    machine: others,
    cores: 2,
  });

  it('is null when no run passed the threshold', () => {
    expect(otherLoad([use(0.1, []), use(0.5, [])], 0.5)).toBeNull();
  });

  it('summarises the busy runs: how many, the range, and the busiest processes per run', () => {
    const load = otherLoad(
      [use(0.1, []), use(0.6, [{ label: 'node jest.js', cores: 0.4 }, { label: 'java Kafka', cores: 0.1 }]), use(1.0, [{ label: 'node jest.js', cores: 0.8 }])],
      0.5,
    )!;
    expect(load).toEqual({ runs: 2, minCores: 0.6, maxCores: 1.0, busiest: [{ label: 'node jest.js', cores: expect.closeTo(0.6, 9) }, { label: 'java Kafka', cores: 0.05 }] });
    expect(describeOtherLoad(load, 3)).toBe('in 2 of 3 runs (0.60–1.00 cores; busiest, per run: node jest.js 0.60, java Kafka 0.05)');
  });
});
