/** What Kafka Connect answers to `GET /connectors/<name>/status` (the fields read here). */
export interface ConnectorStatus {
  name?: string;
  connector?: { state?: string };
  tasks?: Array<{ id?: number; state?: string; trace?: string }>;
}

/**
 * Whether the relay connector is relaying: the connector and every one of its tasks `RUNNING`,
 * and at least one task (a connector whose task has not started relays nothing). Returns null
 * when it is, else why not, in one line.
 */
export function connectorProblem(name: string, status: ConnectorStatus): string | null {
  const state = status.connector?.state ?? 'UNKNOWN';
  if (state !== 'RUNNING') return `connector ${name} is ${state}`;
  const tasks = status.tasks ?? [];
  if (tasks.length === 0) return `connector ${name} has no task running`;
  const stopped = tasks.filter((task) => task.state !== 'RUNNING');
  if (stopped.length === 0) return null;
  return stopped
    .map((task) => {
      const reason = task.trace?.split('\n')[0]?.slice(0, 200);
      return `task ${task.id ?? '?'} of ${name} is ${task.state ?? 'UNKNOWN'}${reason ? `: ${reason}` : ''}`;
    })
    .join('; ');
}
