import { z } from 'zod';
import { retentionEnvShape } from './retention.config';

/** `"true"`/`"false"`/`"1"`/`"0"` environment flags. */
export const envFlag = z
  .enum(['true', 'false', '1', '0'])
  .transform((v) => v === 'true' || v === '1');

/** A TCP port number given as a string. */
export const envPort = z.coerce.number().int().min(1).max(65535);

/**
 * Variables every Longhaul service reads. Defaults match `npm run infra:up`, so a service
 * started with `nx serve <app>` on a developer machine needs no configuration.
 */
export const CommonEnvSchema = z.object({
  /** @defaultValue postgres://longhaul:longhaul@127.0.0.1:5432/longhaul */
  DATABASE_URL: z.url().default('postgres://longhaul:longhaul@127.0.0.1:5432/longhaul'),
  /** Comma-separated `host:port` list. @defaultValue 127.0.0.1:9092 */
  KAFKA_BROKERS: z
    .string()
    .default('127.0.0.1:9092')
    .transform((s) => s.split(',').map((b) => b.trim()).filter(Boolean))
    .pipe(z.array(z.string().regex(/^[^:\s]+:\d+$/, 'must be host:port')).min(1)),
  /**
   * Kafka Connect's REST API, where readiness asks whether the outbox relay (connector
   * `longhaul-outbox`) runs. @defaultValue http://127.0.0.1:8083
   */
  KAFKA_CONNECT_URL: z.url().default('http://127.0.0.1:8083'),
  /** OTLP/HTTP endpoint for traces. @defaultValue http://127.0.0.1:4318 */
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url().default('http://127.0.0.1:4318'),
  /** Set to `false` to run without exporting traces. @defaultValue true */
  LONGHAUL_TRACING: envFlag.default(true),
  /** @defaultValue info */
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Address the HTTP server binds to. @defaultValue 127.0.0.1 */
  HOST: z.string().default('127.0.0.1'),
  /**
   * `production` makes a service refuse to start with a published development secret (see
   * `SecretVariable`); any other value only logs a warning about one. @defaultValue development
   */
  NODE_ENV: z.string().default('development'),
  /**
   * Send `Strict-Transport-Security` with every answer: only where every client comes through
   * https (a proxy that ends TLS), never on a plain-http address. @defaultValue false
   */
  HTTP_HSTS: envFlag.default(false),
  /** Database pool size. @defaultValue 10 */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  /** Record every applied effect in `<schema>.effect_ledger` (for audits and fault-injection runs). @defaultValue false */
  LONGHAUL_EFFECT_LEDGER: envFlag.default(false),
  /** Time allowed for in-flight work on SIGTERM. @defaultValue 10000 */
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).default(10_000),
  ...retentionEnvShape,
});

export type CommonEnv = z.infer<typeof CommonEnvSchema>;
