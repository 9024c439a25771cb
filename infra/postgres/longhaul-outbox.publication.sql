-- The publication the Debezium connector `longhaul-outbox` streams from.
--
-- In:  a session on the `longhaul` database as a superuser (native stack: the
--      infra CLI after every start; docker-compose: the postgres image's
--      /docker-entrypoint-initdb.d on first boot).
-- Out: publication `longhaul_outbox` exists, created empty, and publishes
--      inserts only. Safe to run again.
--
-- It starts empty on purpose: each service's migration adds its own outbox with
--   ALTER PUBLICATION longhaul_outbox ADD TABLE <schema>.outbox;
-- so the connector (publication.autocreate.mode=disabled) only ever sees
-- outbox tables, and a schema joins the relay by its own migration.
--
-- Inserts only: outbox rows are inserted, then deleted by the retention loop
-- once relayed. Debezium's EventRouter routes creates only, so a published
-- delete would be decoded, sent to Connect and dropped there, one per row
-- (the api's migration OutboxInsertsOnly1765400000001 sets the same).
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_publication WHERE pubname = 'longhaul_outbox') THEN
    CREATE PUBLICATION longhaul_outbox WITH (publish = 'insert');
  ELSE
    ALTER PUBLICATION longhaul_outbox SET (publish = 'insert');
  END IF;
END
$$;
