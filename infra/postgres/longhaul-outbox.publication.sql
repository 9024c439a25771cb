-- The publication the Debezium connector `longhaul-outbox` streams from.
--
-- In:  a session on the `longhaul` database as a superuser (native stack: the
--      infra CLI after every start; docker-compose: the postgres image's
--      /docker-entrypoint-initdb.d on first boot).
-- Out: publication `longhaul_outbox` exists, created empty. Safe to run again.
--
-- It starts empty on purpose: each service's migration adds its own outbox with
--   ALTER PUBLICATION longhaul_outbox ADD TABLE <schema>.outbox;
-- so the connector (publication.autocreate.mode=disabled) only ever sees
-- outbox tables, and a schema joins the relay by its own migration.
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_publication WHERE pubname = 'longhaul_outbox') THEN
    CREATE PUBLICATION longhaul_outbox;
  END IF;
END
$$;
