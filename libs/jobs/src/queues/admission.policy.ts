import type { LaneSample } from './queue-sample';

/** A lane's admission limits. */
export interface AdmissionLimits {
  /** Refuse once this many attempts are queued in the lane. */
  maxDepth: number;
  /** Refuse once the lane's consumers lag this many messages behind. */
  maxLag: number;
  /** Refuse a tenant once it has this many open steps (queued or running) in the lane. */
  maxDepthPerTenant: number;
}

/**
 * Which limit refused: the lane's own (`lane`, shared by every tenant: nobody gets in) or the
 * caller's share of it (`tenant`: other tenants still do).
 */
export type AdmissionScope = 'lane' | 'tenant';

/** A limit a lane has reached, with the figure that reached it. */
export interface LimitBreach {
  limit: 'depth' | 'lag';
  figure: number;
  max: number;
}

export type AdmissionDecision =
  | { admit: true }
  | {
      admit: false;
      scope: AdmissionScope;
      /** Every limit reached, depth first. */
      breaches: LimitBreach[];
      /** How long the client should wait before trying again. */
      retryAfterSeconds: number;
    };

/** Retry-After is never shorter than this, in seconds. */
export const MIN_RETRY_AFTER_SECONDS = 1;
/** Retry-After is never longer than this, in seconds: a client should look again within a minute. */
export const MAX_RETRY_AFTER_SECONDS = 60;
/**
 * The drain rate assumed when the lane finished (almost) nothing in the last minute, per second.
 * A stalled lane would otherwise give an infinite wait; the clamp to 60 s bounds it anyway.
 */
export const MIN_DRAIN_PER_SECOND = 1;

const ADMIT: AdmissionDecision = { admit: true };

/**
 * Whether a lane takes one more job. A lane is refused once a figure has REACHED its limit
 * (depth ≥ maxDepth, lag ≥ maxLag), so a queue never holds more than `maxDepth` by more than
 * the submits that race one sample period. Unknown lag (Kafka down) is judged by depth alone;
 * no sample yet admits, so a fresh process never refuses before it has looked.
 */
export function decideAdmission(
  sample: Pick<LaneSample, 'depth' | 'lag' | 'throughputPerSecond'> | null | undefined,
  limits: Pick<AdmissionLimits, 'maxDepth' | 'maxLag'>,
): AdmissionDecision {
  if (!sample) return ADMIT;
  const breaches: LimitBreach[] = [];
  if (sample.depth >= limits.maxDepth) breaches.push({ limit: 'depth', figure: sample.depth, max: limits.maxDepth });
  if (sample.lag !== null && sample.lag >= limits.maxLag) breaches.push({ limit: 'lag', figure: sample.lag, max: limits.maxLag });
  if (breaches.length === 0) return ADMIT;
  // Wait for the worst breach: the lane admits again only once every figure is under its limit.
  const retryAfterSeconds = Math.max(...breaches.map((b) => retryAfterFor(b.figure - b.max + 1, sample.throughputPerSecond)));
  return { admit: false, scope: 'lane', breaches, retryAfterSeconds };
}

/**
 * Whether a tenant takes one more job in a lane the lane's own limits admit: refused once its
 * depth (open steps, queued or running) has REACHED `maxDepthPerTenant`. A tenant absent from the
 * sample has none open (depth 0); no sample yet admits, as for the lane. The wait assumes the
 * lane's throughput is shared in proportion to the open steps, so the tenant's own steps drain
 * at its share of it.
 */
export function decideTenantAdmission(
  tenantId: string,
  sample: Pick<LaneSample, 'depth' | 'running' | 'throughputPerSecond' | 'tenantDepths'> | null | undefined,
  limits: Pick<AdmissionLimits, 'maxDepthPerTenant'>,
): AdmissionDecision {
  if (!sample) return ADMIT;
  const depth = sample.tenantDepths.get(tenantId) ?? 0;
  if (depth < limits.maxDepthPerTenant) return ADMIT;
  const laneOpen = sample.depth + sample.running;
  const share = laneOpen > 0 ? Math.min(1, depth / laneOpen) : 1;
  return {
    admit: false,
    scope: 'tenant',
    breaches: [{ limit: 'depth', figure: depth, max: limits.maxDepthPerTenant }],
    retryAfterSeconds: retryAfterFor(depth - limits.maxDepthPerTenant + 1, sample.throughputPerSecond * share),
  };
}

/**
 * Seconds until `excess` items drain at `throughputPerSecond` (at least {@link MIN_DRAIN_PER_SECOND}),
 * rounded up and clamped to [{@link MIN_RETRY_AFTER_SECONDS}, {@link MAX_RETRY_AFTER_SECONDS}].
 */
export function retryAfterFor(excess: number, throughputPerSecond: number): number {
  const rate = Math.max(Number.isFinite(throughputPerSecond) ? throughputPerSecond : 0, MIN_DRAIN_PER_SECOND);
  const seconds = Math.ceil(Math.max(excess, 0) / rate);
  return Math.min(MAX_RETRY_AFTER_SECONDS, Math.max(MIN_RETRY_AFTER_SECONDS, seconds));
}
