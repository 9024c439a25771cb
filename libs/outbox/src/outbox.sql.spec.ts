import { createOutboxTableSql, outboxRelayPositionSql, revertOutboxRelayPositionSql } from './outbox.sql';

describe('createOutboxTableSql', () => {
  it('creates the Debezium outbox columns plus topic and traceparent, and joins the publication', () => {
    const sql = createOutboxTableSql('transcoder').join('\n');
    for (const column of ['id', 'aggregatetype', 'aggregateid', 'type', 'payload', 'topic', 'traceparent']) {
      expect(sql).toMatch(new RegExp(`\\b${column}\\b`));
    }
    expect(sql).toContain('"transcoder".outbox');
    expect(sql).toContain('ALTER PUBLICATION longhaul_outbox ADD TABLE "transcoder".outbox');
  });
});

describe('outboxRelayPositionSql', () => {
  it('adds wal_lsn without rewriting old rows, fills it by default at insert, and indexes it', () => {
    const [add, setDefault, index] = outboxRelayPositionSql('api');
    expect(add).toBe('ALTER TABLE "api".outbox ADD COLUMN wal_lsn bigint');
    expect(add).not.toContain('DEFAULT');
    expect(setDefault).toContain('SET DEFAULT (pg_current_wal_insert_lsn()');
    expect(index).toContain('ON "api".outbox (wal_lsn) WHERE wal_lsn IS NOT NULL');
  });

  it('is reversible', () => {
    expect(revertOutboxRelayPositionSql('api').join('\n')).toContain('DROP COLUMN IF EXISTS wal_lsn');
  });
});
