// Where a V8 CPU profile (`.cpuprofile`, as `--cpu-prof` and the inspector's Profiler.stop write
// it) spent its time: self time per function and per package. Pure.

/** One frame of the profile's call tree. */
export interface CpuProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number; scriptId?: string };
  hitCount?: number;
  children?: number[];
}

/** The `.cpuprofile` document: each sample names the node on top of the stack at that moment. */
export interface CpuProfile {
  nodes: CpuProfileNode[];
  /** Microseconds on the monotonic clock. */
  startTime: number;
  endTime: number;
  /** Node id of each sample. */
  samples: number[];
  /** Microseconds since the previous sample (the first: since `startTime`). */
  timeDeltas: number[];
}

/** Self time of one function (or one package), over the samples counted. */
export interface SelfTime {
  /** `functionName` (`(anonymous)` when V8 has none), or the package for {@link selfTimeByPackage}. */
  name: string;
  /** The script, relative to the workspace where it is under it; empty for V8's own entries. */
  url: string;
  /**
   * The package charged with the time: the frame's own, except for native code and Node's
   * internals, which are charged to the nearest caller that is neither (a socket `writev` to the
   * pg package that wrote to the socket); {@link packageOf} names.
   */
  chargedTo: string;
  samples: number;
  selfMs: number;
  /** Of all time in the window, idle included. */
  share: number;
}

/** Options of {@link selfTimeByFunction} and {@link selfTimeByPackage}. */
export interface SelfTimeOptions {
  /** Only samples at or after this moment (µs, the profile's clock). @defaultValue the profile's start */
  fromUs?: number;
  /** Only samples before this moment. @defaultValue the profile's end */
  toUs?: number;
  /** Removed from the front of every script URL, e.g. `file:///work/main/`. */
  urlPrefix?: string;
  /** {@link selfTimeByPackage} only: group by {@link SelfTime.chargedTo} rather than the frame's own package. @defaultValue false */
  chargeToCaller?: boolean;
}

/** V8's pseudo-frames: not JavaScript, but time the profile still accounts for. */
export const IDLE = '(idle)';

/**
 * Self time per function (name + script) and the package it is charged to, most first: native
 * code called from two packages is two entries. A sample's time is the gap to the next sample
 * (the last one's, to the profile's end), as Chrome DevTools counts it, so a profile sampled
 * unevenly still adds up to its wall time.
 */
export function selfTimeByFunction(profile: CpuProfile, options: SelfTimeOptions = {}): SelfTime[] {
  return aggregate(profile, options, (node, url, chargedTo) => ({ key: `${functionName(node)}\u0000${url}\u0000${chargedTo}`, name: functionName(node), url }));
}

/**
 * Self time per package: `node_modules/<name>` (scoped names whole), `node:` internals as
 * `node internals`, V8's pseudo-frames as themselves, natives (no script) as `native`, and
 * anything else — the services' own compiled code — as `longhaul`.
 */
export function selfTimeByPackage(profile: CpuProfile, options: SelfTimeOptions = {}): SelfTime[] {
  return aggregate(profile, options, (node, url, chargedTo) => {
    const name = options.chargeToCaller ? chargedTo : packageOf(node, url);
    return { key: name, name, url: '' };
  });
}

/** The package a frame belongs to; see {@link selfTimeByPackage}. */
export function packageOf(node: CpuProfileNode, url: string): string {
  const name = node.callFrame.functionName;
  if (url === '' && name.startsWith('(') && name.endsWith(')')) return name;
  if (url === '') return 'native';
  if (url.startsWith('node:')) return 'node internals';
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (match) return match[1]!;
  return 'longhaul';
}

/** Wall time the window covers, in ms, and the share of it the profiled process was idle. */
export function idleShare(profile: CpuProfile, options: SelfTimeOptions = {}): { windowMs: number; idle: number } {
  const all = selfTimeByFunction(profile, options);
  const windowMs = all.reduce((sum, e) => sum + e.selfMs, 0);
  const idle = all.find((e) => e.name === IDLE && e.url === '')?.selfMs ?? 0;
  return { windowMs, idle: windowMs > 0 ? idle / windowMs : 0 };
}

/** Packages whose time is charged to their caller. */
const PASS_THROUGH = new Set(['native', 'node internals']);

/** For every node, the package charged with its self time; see {@link SelfTime.chargedTo}. */
function chargedPackages(profile: CpuProfile, urlOf: (node: CpuProfileNode) => string): Map<number, string> {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parents = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
  const charged = new Map<number, string>();
  const chargeOf = (id: number): string => {
    const known = charged.get(id);
    if (known !== undefined) return known;
    const node = nodes.get(id)!;
    const own = packageOf(node, urlOf(node));
    const parent = parents.get(id);
    let result = own;
    if (PASS_THROUGH.has(own) && parent !== undefined) {
      const above = chargeOf(parent);
      // The root's pseudo-frame charges nothing: what no library called stays where it is.
      if (!above.startsWith('(')) result = above;
    }
    charged.set(id, result);
    return result;
  };
  // Parents before children, so the walk up never recurses deep.
  for (const node of profile.nodes) chargeOf(node.id);
  return charged;
}

function aggregate(
  profile: CpuProfile,
  options: SelfTimeOptions,
  keyOf: (node: CpuProfileNode, url: string, chargedTo: string) => { key: string; name: string; url: string },
): SelfTime[] {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const charged = chargedPackages(profile, (node) => stripPrefix(node.callFrame.url, options.urlPrefix));
  const from = options.fromUs ?? Number.NEGATIVE_INFINITY;
  const to = options.toUs ?? Number.POSITIVE_INFINITY;
  const totals = new Map<string, SelfTime>();
  let windowUs = 0;
  let at = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i] ?? 0;
    if (at < from || at >= to) continue;
    const next = i + 1 < profile.samples.length ? at + (profile.timeDeltas[i + 1] ?? 0) : profile.endTime;
    const durationUs = Math.max(0, Math.min(next, to) - at);
    const node = nodes.get(profile.samples[i]!);
    if (!node) continue;
    const url = stripPrefix(node.callFrame.url, options.urlPrefix);
    const chargedTo = charged.get(node.id)!;
    const { key, name, url: shownUrl } = keyOf(node, url, chargedTo);
    const entry = totals.get(key) ?? { name, url: shownUrl, chargedTo, samples: 0, selfMs: 0, share: 0 };
    entry.samples += 1;
    entry.selfMs += durationUs / 1000;
    totals.set(key, entry);
    windowUs += durationUs;
  }
  const list = [...totals.values()];
  for (const entry of list) entry.share = windowUs > 0 ? (entry.selfMs * 1000) / windowUs : 0;
  return list.sort((a, b) => b.selfMs - a.selfMs || a.name.localeCompare(b.name));
}

function functionName(node: CpuProfileNode): string {
  return node.callFrame.functionName || '(anonymous)';
}

function stripPrefix(url: string, prefix: string | undefined): string {
  return prefix && url.startsWith(prefix) ? url.slice(prefix.length) : url;
}
