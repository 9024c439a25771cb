import { createOutboxTableSql } from './outbox.sql';

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
