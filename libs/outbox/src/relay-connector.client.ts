import { connectorProblem, type ConnectorStatus } from './relay-connector.policy';

/**
 * Asks Kafka Connect's REST API whether the relay connector runs. Used by readiness: each call
 * is one `GET`, cut short by the caller's signal.
 */
export class RelayConnectorClient {
  constructor(
    /** Kafka Connect's REST base URL (`KAFKA_CONNECT_URL`). */
    private readonly connectUrl: string,
    /** The connector's name (`OutboxRelay.connector`). */
    private readonly connector: string,
  ) {}

  /** Resolves when the connector and all its tasks are `RUNNING`; rejects saying why not. */
  async assertRunning(signal?: AbortSignal): Promise<void> {
    const url = `${this.connectUrl.replace(/\/+$/, '')}/connectors/${encodeURIComponent(this.connector)}/status`;
    let response: Response;
    try {
      response = await fetch(url, { signal, headers: { accept: 'application/json' } });
    } catch (error) {
      throw new Error(`Kafka Connect at ${this.connectUrl} did not answer: ${(error as Error).message}`);
    }
    if (response.status === 404) {
      await response.body?.cancel();
      throw new Error(`connector ${this.connector} is not registered with Kafka Connect`);
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new Error(`Kafka Connect answered ${response.status} for connector ${this.connector}`);
    }
    const problem = connectorProblem(this.connector, (await response.json()) as ConnectorStatus);
    if (problem) throw new Error(problem);
  }
}
