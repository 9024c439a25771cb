import { connectorProblem } from './relay-connector.policy';

describe('connectorProblem', () => {
  const running = { name: 'longhaul-outbox', connector: { state: 'RUNNING' }, tasks: [{ id: 0, state: 'RUNNING' }] };

  it('is null when the connector and its tasks run', () => {
    expect(connectorProblem('longhaul-outbox', running)).toBeNull();
  });

  it('names a connector that is not running', () => {
    expect(connectorProblem('longhaul-outbox', { ...running, connector: { state: 'PAUSED' } })).toBe('connector longhaul-outbox is PAUSED');
    expect(connectorProblem('longhaul-outbox', {})).toBe('connector longhaul-outbox is UNKNOWN');
  });

  it('needs a task: a connector without one relays nothing', () => {
    expect(connectorProblem('longhaul-outbox', { ...running, tasks: [] })).toBe('connector longhaul-outbox has no task running');
  });

  it("names a failed task with the first line of its trace", () => {
    const failed = { ...running, tasks: [{ id: 0, state: 'FAILED', trace: 'org.apache.kafka.connect.errors.ConnectException: slot is gone\n\tat io.debezium…' }] };
    expect(connectorProblem('longhaul-outbox', failed)).toBe('task 0 of longhaul-outbox is FAILED: org.apache.kafka.connect.errors.ConnectException: slot is gone');
  });
});
