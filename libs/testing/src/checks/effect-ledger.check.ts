/**
 * Exactly-once effects, judged from the services' effect ledgers (`<schema>.effect_ledger`):
 * one row per applied effect and no unique key, so an effect applied twice shows as two rows.
 */

/** One ledger row. `attempt` is what the service recorded there (for the notifier, the event version). */
export interface LedgerRow {
  effect: string;
  jobId: string;
  step: string | null;
  attempt: number | null;
}

export type LedgerKeyField = 'jobId' | 'step' | 'attempt';

/** "`effect` is applied at most once per `per`". */
export interface EffectOnceRule {
  /** Which ledger, for the report, e.g. `api`. */
  ledger: string;
  effect: string;
  per: readonly LedgerKeyField[];
}

/** An effect applied more than once for one key. */
export interface RepeatedEffect {
  ledger: string;
  effect: string;
  /** The key's fields as `jobId=…, step=…`. */
  key: string;
  count: number;
}

/** Rows of `rule.effect` grouped by `rule.per`; every group with more than one row. Pure. */
export function findRepeatedEffects(rows: readonly LedgerRow[], rule: EffectOnceRule): RepeatedEffect[] {
  const counts = new Map<string, number>();
  for (const row of rows) {
    if (row.effect !== rule.effect) continue;
    const key = rule.per.map((field) => `${field}=${row[field]}`).join(', ');
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts]
    .filter(([, count]) => count > 1)
    .map(([key, count]) => ({ ledger: rule.ledger, effect: rule.effect, key, count }));
}

/** A step as `api.job_steps` holds it. */
export interface StepRow {
  jobId: string;
  name: string;
  status: string;
  /** The current attempt: the only one whose result may be applied. */
  attempt: number;
}

/** A succeeded step whose applied result is missing or belongs to another attempt. */
export interface SupersededResult {
  jobId: string;
  step: string;
  currentAttempt: number;
  /** Attempts of the `step.succeeded` rows recorded for this step (empty: none). */
  appliedAttempts: Array<number | null>;
}

/**
 * Fencing by attempt: for every succeeded step, the api applied the result of the step's
 * current attempt, and of no other. Given `api.job_steps` and the api ledger's
 * `step.succeeded` rows. Pure.
 */
export function findSupersededResults(steps: readonly StepRow[], ledger: readonly LedgerRow[], effect = 'step.succeeded'): SupersededResult[] {
  const applied = new Map<string, Array<number | null>>();
  for (const row of ledger) {
    if (row.effect !== effect) continue;
    const key = `${row.jobId}/${row.step}`;
    applied.set(key, [...(applied.get(key) ?? []), row.attempt]);
  }
  const found: SupersededResult[] = [];
  for (const step of steps) {
    if (step.status !== 'succeeded') continue;
    const attempts = applied.get(`${step.jobId}/${step.name}`) ?? [];
    if (attempts.length === 0 || attempts.some((attempt) => attempt !== step.attempt)) {
      found.push({ jobId: step.jobId, step: step.name, currentAttempt: step.attempt, appliedAttempts: attempts });
    }
  }
  return found;
}
