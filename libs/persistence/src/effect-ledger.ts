import { settleAtCommit, type Sql } from './sql.executor';

/**
 * DDL of a service's effect ledger.
 *
 * In:  the owning schema name.
 * Out: `<schema>.effect_ledger`, one row each time the service applies an effect (a step result
 *      accepted, a notification recorded, a work item finished). It has no unique key on
 *      purpose: it records what happened, so a second application of one effect shows up as a
 *      second row instead of being hidden by a constraint. Fault-injection runs count it.
 */
export function createEffectLedgerTableSql(schema: string): string[] {
  return [
    `CREATE TABLE IF NOT EXISTS "${schema}".effect_ledger (
       seq        bigserial PRIMARY KEY,
       effect     text NOT NULL,
       job_id     uuid NOT NULL,
       step       text,
       attempt    integer,
       applied_at timestamptz NOT NULL DEFAULT now()
     )`,
    `CREATE INDEX IF NOT EXISTS effect_ledger_job_idx ON "${schema}".effect_ledger (job_id, effect)`,
  ];
}

/** One applied effect. */
export interface AppliedEffect {
  effect: string;
  jobId: string;
  step?: string | null;
  attempt?: number | null;
}

/**
 * Records an effect in `<schema>.effect_ledger`, in the caller's transaction (the one that
 * applies the effect), so the ledger and the effect commit or roll back together. The insert is
 * settled at commit (`settleAtCommit`): nothing waits for its answer.
 */
export class EffectLedger {
  constructor(
    private readonly schema: string,
    /** Off unless configured (`LONGHAUL_EFFECT_LEDGER=true`): it is an audit aid, not a store. */
    private readonly enabled: boolean,
  ) {}

  async record(sql: Sql, effect: AppliedEffect): Promise<void> {
    if (!this.enabled) return;
    await settleAtCommit(
      sql,
      sql.execute(
        `INSERT INTO "${this.schema}".effect_ledger (effect, job_id, step, attempt) VALUES ($1, $2, $3, $4)`,
        [effect.effect, effect.jobId, effect.step ?? null, effect.attempt ?? null],
      ),
    );
  }
}
