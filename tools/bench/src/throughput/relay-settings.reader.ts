// The relay settings a lag figure depends on, as the running connector has them (else as the
// checked-in connector JSON has them), for the report's method: a later tuning run changes them
// and must be able to tell which figure went with which settings.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { OutboxRelay } from '@longhaul/outbox';
import { workspaceRoot } from '@longhaul/testing';

/** A relay setting, its value, and where the value came from. */
export interface RelaySetting {
  key: string;
  value: string;
  /** `connector` (set in its config) or `default` (unset: Debezium's or Kafka's default applies). */
  source: 'connector' | 'default';
  /** What it does to lag. */
  effect: string;
}

/** The settings that decide how long a committed row waits before it is readable, with the defaults that apply when unset. */
const LAG_SETTINGS: ReadonlyArray<{ key: string; fallback: string; effect: string }> = [
  {
    key: 'poll.interval.ms',
    fallback: '500',
    effect: "Debezium's task returns a batch when `max.batch.size` events are queued or this long after it began waiting, whichever is first",
  },
  { key: 'max.batch.size', fallback: '2048', effect: 'events per batch; a batch this full is returned without waiting out the poll interval' },
  { key: 'max.queue.size', fallback: '8192', effect: 'events buffered between the WAL reader and the task before the reader blocks' },
  { key: 'producer.override.linger.ms', fallback: "unset (the worker's producer setting)", effect: "how long Connect's producer waits to fill a batch before it sends it" },
];

/**
 * The lag settings of the `longhaul-outbox` connector: from Connect's REST API
 * (`GET /connectors/longhaul-outbox/config`), or from `infra/debezium/longhaul-outbox.connector.json`
 * when Connect does not answer. `from` says which.
 */
export async function readRelaySettings(connectUrl: string): Promise<{ from: string; settings: RelaySetting[] }> {
  let config: Record<string, string>;
  let from: string;
  try {
    const response = await fetch(`${connectUrl}/connectors/${OutboxRelay.connector}/config`, { signal: AbortSignal.timeout(5_000) });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    config = (await response.json()) as Record<string, string>;
    from = `the running connector (\`GET /connectors/${OutboxRelay.connector}/config\`)`;
  } catch {
    config = JSON.parse(readFileSync(join(workspaceRoot(), 'infra', 'debezium', `${OutboxRelay.connector}.connector.json`), 'utf8')) as Record<string, string>;
    from = `\`infra/debezium/${OutboxRelay.connector}.connector.json\` (Connect did not answer)`;
  }
  return {
    from,
    settings: LAG_SETTINGS.map(({ key, fallback, effect }) =>
      config[key] === undefined ? { key, value: fallback, source: 'default' as const, effect } : { key, value: config[key]!, source: 'connector' as const, effect },
    ),
  };
}
