import {
  createOutboxTableSql,
  outboxPublishInsertsOnlySql,
  outboxRelayPositionSql,
  revertOutboxPublishInsertsOnlySql,
  revertOutboxRelayPositionSql,
} from './outbox.sql';

describe('createOutboxTableSql', () => {
  it('creates the Debezium outbox columns plus topic and traceparent, and joins the publication', () => {
    const sql = createOutboxTableSql('transcoder').join('\n');
    for (const column of ['id', 'aggregatetype', 'aggregateid', 'type', 'payload', 'topic', 'traceparent']) {
      expect(sql).toMatch(new RegExp(`\\b${column}\\b`));
    }
    expect(sql).toContain('"transcoder".outbox');
    expect(sql).toContain('ALTER PUBLICATION longhaul_outbox ADD TABLE "transcoder".outbox');
  });

  it('creates a missing publication that streams inserts only', () => {
    expect(createOutboxTableSql('api').join('\n')).toContain("CREATE PUBLICATION longhaul_outbox WITH (publish = 'insert')");
  });
});

describe('outboxPublishInsertsOnlySql', () => {
  it('narrows an existing publication to inserts, and its reversal restores every kind of change', () => {
    expect(outboxPublishInsertsOnlySql().join('\n')).toContain("ALTER PUBLICATION longhaul_outbox SET (publish = 'insert')");
    expect(revertOutboxPublishInsertsOnlySql().join('\n')).toContain("SET (publish = 'insert, update, delete, truncate')");
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
