import { idleShare, packageOf, selfTimeByFunction, selfTimeByPackage, type CpuProfile, type CpuProfileNode } from './cpu-profile.summary';

const frame = (id: number, functionName: string, url = '', children: number[] = []): CpuProfileNode => ({
  id,
  callFrame: { functionName, url, lineNumber: 0, columnNumber: 0 },
  children,
});

/** (root) → main → { parse (pg), query (pg) }, plus (idle) and an anonymous function. */
const nodes = [
  frame(1, '(root)', '', [2, 5, 6]),
  frame(2, 'main', 'file:///ws/dist/apps/api/src/main.js', [3, 4]),
  frame(3, 'parse', 'file:///ws/node_modules/pg-protocol/dist/parser.js'),
  frame(4, 'query', 'file:///ws/node_modules/@scope/pkg/index.js'),
  frame(5, '(idle)'),
  frame(6, '', 'node:internal/streams/readable'),
];

/** Samples 1 ms apart except where noted; each sample lasts until the next. */
const profile: CpuProfile = {
  nodes,
  startTime: 1_000_000,
  endTime: 1_010_000,
  samples: [3, 3, 3, 4, 5, 5, 2, 6, 3, 3],
  timeDeltas: [0, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000],
};

describe('selfTimeByFunction', () => {
  it('sums each function’s samples, weighted by the time to the next sample, most first', () => {
    const top = selfTimeByFunction(profile, { urlPrefix: 'file:///ws/' });
    expect(top.map((e) => [e.name, e.samples])).toEqual([
      ['parse', 5],
      ['(idle)', 2],
      ['(anonymous)', 1],
      ['main', 1],
      ['query', 1],
    ]);
    // The last sample lasts to the profile's end: 1 ms after it here as well.
    expect(top[0]!.selfMs).toBeCloseTo(5, 6);
    expect(top[0]!.url).toBe('node_modules/pg-protocol/dist/parser.js');
    expect(top.reduce((sum, e) => sum + e.share, 0)).toBeCloseTo(1, 9);
  });

  it('keeps functions of the same name in different scripts apart', () => {
    const twin: CpuProfile = { ...profile, nodes: [...nodes, frame(7, 'parse', 'file:///ws/dist/libs/x.js')], samples: [3, 7], timeDeltas: [0, 1000], endTime: 1_002_000 };
    expect(selfTimeByFunction(twin)).toHaveLength(2);
  });

  it('counts only samples inside the window', () => {
    // Samples at 1.000 … 1.009 s; the window [1.004, 1.007) holds samples 5, 6, 7: idle, idle, main.
    const top = selfTimeByFunction(profile, { fromUs: 1_004_000, toUs: 1_007_000 });
    expect(top.map((e) => [e.name, e.samples])).toEqual([
      ['(idle)', 2],
      ['main', 1],
    ]);
    expect(top[0]!.share).toBeCloseTo(2 / 3, 9);
  });

  it('weights uneven gaps by their length', () => {
    const uneven: CpuProfile = { ...profile, samples: [3, 4], timeDeltas: [0, 3000], endTime: 1_004_000 };
    const top = selfTimeByFunction(uneven);
    expect(top.map((e) => [e.name, e.selfMs])).toEqual([
      ['parse', 3],
      ['query', 1],
    ]);
  });
});

describe('selfTimeByPackage', () => {
  it('groups by package, scoped names whole, with node internals, pseudo-frames and our own code apart', () => {
    const packages = selfTimeByPackage(profile);
    expect(Object.fromEntries(packages.map((p) => [p.name, p.samples]))).toEqual({
      'pg-protocol': 5,
      '(idle)': 2,
      'node internals': 1,
      longhaul: 1,
      '@scope/pkg': 1,
    });
  });

  it('names a frame without a script native unless it is a pseudo-frame', () => {
    expect(packageOf(frame(1, 'JSON.parse'), '')).toBe('native');
    expect(packageOf(frame(1, '(garbage collector)'), '')).toBe('(garbage collector)');
  });
});

describe('charging native code and Node internals to their caller', () => {
  /** (root) → query (pg) → Socket._write (node:net) → writev (native); (root) → writev (native), called by nobody's code. */
  const charged: CpuProfile = {
    nodes: [
      frame(1, '(root)', '', [2, 5]),
      frame(2, 'query', 'file:///ws/node_modules/pg/lib/query.js', [3]),
      frame(3, 'Socket._write', 'node:net', [4]),
      frame(4, 'writev'),
      frame(5, 'writev'),
    ],
    startTime: 0,
    endTime: 4000,
    samples: [4, 4, 3, 5],
    timeDeltas: [0, 1000, 1000, 1000],
  };

  it('charges them to the nearest library that called them, and leaves what nothing called where it is', () => {
    const functions = selfTimeByFunction(charged);
    expect(functions.map((f) => [f.name, f.chargedTo, f.samples])).toEqual([
      ['writev', 'pg', 2],
      ['Socket._write', 'pg', 1],
      ['writev', 'native', 1],
    ]);
  });

  it('groups packages by what was charged when asked, by the frames’ own otherwise', () => {
    expect(selfTimeByPackage(charged, { chargeToCaller: true }).map((p) => [p.name, p.samples])).toEqual([
      ['pg', 3],
      ['native', 1],
    ]);
    expect(selfTimeByPackage(charged).map((p) => [p.name, p.samples])).toEqual([
      ['native', 3],
      ['node internals', 1],
    ]);
  });
});

describe('idleShare', () => {
  it('is the idle part of the window', () => {
    expect(idleShare(profile)).toEqual({ windowMs: 10, idle: 0.2 });
  });
});
