import type { BenchmarkContext } from '../benchmark';
import { PeerUnavailableError, type PeerAdapter } from './peer.adapter';
import type { PeerVariant } from './peer.catalog';

/** What the repetitions of one peer gave. */
export interface PeerOutcome<R> {
  name: string;
  /** One entry per repetition that completed. */
  reps: R[];
  /** Why the peer could not run here at all (then `reps` is empty). */
  unavailable?: string;
  /** Repetitions that failed, with their error. */
  failures: string[];
  settings: readonly string[];
  /** Errors the library reported on its own channel, over all repetitions (at most the first 5). */
  libraryErrors: string[];
}

/**
 * Runs `measure` `repetitions` times for every peer, on a fresh adapter each time (started,
 * measured, stopped: schema dropped, redis-server stopped). Repetition-major — every peer's first
 * repetition, then every peer's second — so a slow drift of the machine touches all peers alike.
 * A peer that is unavailable here is skipped from then on; one failed repetition does not stop
 * the others.
 */
export async function runPeerRepetitions<R>(
  ctx: BenchmarkContext,
  variants: readonly PeerVariant[],
  repetitions: number,
  /** `signal` aborts on SIGINT and when the repetition's time is up. */
  measure: (peer: PeerAdapter, rep: number, signal: AbortSignal) => Promise<R>,
  /** The bound on one repetition's measurement; past it the repetition fails and the peer is stopped. */
  maxRepMs: number,
  /** How long a measurement may take to notice its signal before it is abandoned. @defaultValue 15 s */
  options: { graceMs?: number } = {},
): Promise<PeerOutcome<R>[]> {
  const graceMs = options.graceMs ?? GRACE_MS;
  const outcomes = variants.map((v): PeerOutcome<R> => ({ name: v.name, reps: [], failures: [], settings: v.create().settings, libraryErrors: [] }));
  for (let rep = 1; rep <= repetitions; rep++) {
    for (const [i, variant] of variants.entries()) {
      const outcome = outcomes[i]!;
      if (ctx.signal.aborted || outcome.unavailable !== undefined) continue;
      const peer = variant.create();
      ctx.log(`  ${variant.name}, rep ${rep}/${repetitions} …`);
      try {
        await peer.start();
        const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(maxRepMs)]);
        outcome.reps.push(await bounded(measure(peer, rep, signal), maxRepMs + graceMs, 'the measurement'));
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        if (error instanceof PeerUnavailableError) {
          outcome.unavailable = message;
          ctx.log(`  ${variant.name}: not measured: ${message}`);
        } else {
          outcome.failures.push(`rep ${rep}: ${message}`);
          ctx.log(`  ${variant.name}, rep ${rep} failed: ${message}`);
        }
      } finally {
        await bounded(peer.stop(), STOP_MAX_MS, 'stopping').catch((error: unknown) => outcome.failures.push(`rep ${rep}, stopping: ${error instanceof Error ? error.message : String(error)}`));
        for (const error of peer.errors) if (outcome.libraryErrors.length < 5) outcome.libraryErrors.push(error);
      }
    }
  }
  return outcomes;
}

/** After the measurement's own signal fires, how long it may take to notice before it is abandoned. */
const GRACE_MS = 15_000;
/** A peer that takes longer than this to stop is left behind (its failure is reported). */
const STOP_MAX_MS = 30_000;

/** `work`, or a rejection naming `what` after `ms`: no library call may hold the run forever. */
async function bounded<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${Math.round(ms / 1000)} s`)), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** The method's paragraph listing each peer's settings. */
export function settingsParagraphs(outcomes: ReadonlyArray<PeerOutcome<unknown>>): string[] {
  return outcomes.map((o) => `**${o.name}.** ${o.settings.join(' ')}`);
}

/** A median client CPU (share of one core) at or above this means the Node.js process set the pace. */
export const CLIENT_BOUND_SHARE = 0.8;

/** Peers whose runs were limited by this benchmark's own event loop rather than by their store. */
export function clientBoundParagraphs<R>(outcomes: ReadonlyArray<PeerOutcome<R>>, share: (rep: R) => number): string[] {
  return outcomes.flatMap((o) => {
    if (o.reps.length === 0) return [];
    const shares = o.reps.map(share).sort((a, b) => a - b);
    const median = shares[Math.floor(shares.length / 2)]!;
    return median >= CLIENT_BOUND_SHARE
      ? [`**${o.name}**: the benchmark's Node.js process used ${Math.round(median * 100)} % of a core (median): its own event loop, where the library's client code runs, was near its limit, so ${o.name}'s figure is a floor for what its store could take.`]
      : [];
  });
}

/** Findings for peers that could not run or failed, and errors the libraries reported. */
export function troubleParagraphs(outcomes: ReadonlyArray<PeerOutcome<unknown>>): string[] {
  const out: string[] = [];
  for (const o of outcomes) {
    if (o.unavailable !== undefined) out.push(`**${o.name} was not measured**: ${o.unavailable}.`);
    if (o.failures.length > 0) out.push(`**${o.name}**: ${o.failures.length} repetition(s) failed and are left out of its figures: ${o.failures.join('; ')}.`);
    if (o.libraryErrors.length > 0) out.push(`**${o.name}** reported errors of its own during the runs (first ${o.libraryErrors.length}): ${o.libraryErrors.map((e) => `\`${e}\``).join('; ')}.`);
  }
  return out;
}
