import type { Kafka } from 'kafkajs';
import { KafkaAdminSession } from './kafka-admin.session';

interface FakeAdmin {
  connect: () => Promise<void>;
  disconnect: jest.Mock;
  describeCluster: () => Promise<{ brokers: unknown[] }>;
}

function kafkaWith(make: () => FakeAdmin): { kafka: Kafka; admins: FakeAdmin[] } {
  const admins: FakeAdmin[] = [];
  const kafka = {
    admin: () => {
      const admin = make();
      admins.push(admin);
      return admin;
    },
  } as unknown as Kafka;
  return { kafka, admins };
}

const healthy = (): FakeAdmin => ({
  connect: async () => undefined,
  disconnect: jest.fn(async () => undefined),
  describeCluster: async () => ({ brokers: [{ nodeId: 1 }] }),
});

describe('KafkaAdminSession', () => {
  it('connects once and reuses the connection', async () => {
    const { kafka, admins } = kafkaWith(healthy);
    const session = new KafkaAdminSession(kafka, 500);
    await session.run((admin) => admin.describeCluster());
    await session.run((admin) => admin.describeCluster());
    expect(admins).toHaveLength(1);
    await session.close();
    expect(admins[0]!.disconnect).toHaveBeenCalled();
  });

  it('rejects within its bound when the broker never answers, and connects afresh next time', async () => {
    const { kafka, admins } = kafkaWith(() => ({ ...healthy(), connect: () => new Promise<never>(() => undefined) }));
    const session = new KafkaAdminSession(kafka, 50);
    const started = Date.now();
    await expect(session.run((admin) => admin.describeCluster())).rejects.toThrow('within 50 ms');
    expect(Date.now() - started).toBeLessThan(1_000);
    await expect(session.run((admin) => admin.describeCluster())).rejects.toThrow();
    expect(admins).toHaveLength(2);
  });

  it('drops the connection after a failed call', async () => {
    const { kafka, admins } = kafkaWith(healthy);
    const session = new KafkaAdminSession(kafka, 500);
    await expect(session.run(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await session.run((admin) => admin.describeCluster());
    expect(admins).toHaveLength(2);
    expect(admins[0]!.disconnect).toHaveBeenCalled();
  });

  it('refuses calls once closed', async () => {
    const { kafka } = kafkaWith(healthy);
    const session = new KafkaAdminSession(kafka, 500);
    await session.close();
    await expect(session.run((admin) => admin.describeCluster())).rejects.toThrow('closed');
  });
});
