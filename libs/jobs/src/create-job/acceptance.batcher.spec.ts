import type { DataSource, Sql } from '@longhaul/persistence';
import { withPgClient } from '@longhaul/persistence/testing';
import { AcceptanceBatcher, type AcceptanceWrites } from './acceptance.batcher';
import type { JobAcceptance } from './job-acceptance.writer';

const dataSource = {
  createQueryRunner: () => withPgClient({ release: async () => undefined, query: async () => ({ records: [] }) }),
} as unknown as DataSource;

const acceptance = (id: string) => ({ job: { id } }) as unknown as JobAcceptance;
const STAMP = new Date('2026-12-01T12:00:00.000Z');

/** A writer whose statements finish when the test says so, recording what each wrote. */
class GatedWriter implements AcceptanceWrites {
  readonly statements: string[][] = [];
  private readonly gates: Array<() => void> = [];
  failMany: unknown = null;
  failAlone = new Set<string>();

  async write(_sql: Sql, a: JobAcceptance): Promise<Date> {
    this.statements.push([a.job.id]);
    await this.gate();
    if (this.failAlone.has(a.job.id)) throw postgresError('23505');
    return STAMP;
  }

  async writeMany(_sql: Sql, all: readonly JobAcceptance[]): Promise<Date> {
    this.statements.push(all.map((a) => a.job.id));
    await this.gate();
    if (this.failMany) throw this.failMany;
    return STAMP;
  }

  /** Lets the oldest statement still running finish. */
  release(): void {
    this.gates.shift()?.();
  }

  releaseAll(): void {
    while (this.gates.length > 0) this.release();
  }

  private gate(): Promise<void> {
    return new Promise((resolve) => this.gates.push(resolve));
  }
}

function postgresError(code: string): Error {
  return Object.assign(new Error(`duplicate key (${code})`), { code, severity: 'ERROR' });
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('AcceptanceBatcher', () => {
  it('writes a submit that finds a slot free at once and alone', async () => {
    const writer = new GatedWriter();
    const batcher = new AcceptanceBatcher(dataSource, writer, { maxInFlight: 2 });
    const first = batcher.write(acceptance('a'));
    await settle();
    expect(writer.statements).toEqual([['a']]);
    writer.release();
    await expect(first).resolves.toEqual(STAMP);
  });

  it('writes the submits that waited for a slot together, in one statement, and answers each once it committed', async () => {
    const writer = new GatedWriter();
    const batcher = new AcceptanceBatcher(dataSource, writer, { maxInFlight: 1 });
    const results: string[] = [];
    const submit = (id: string) => batcher.write(acceptance(id)).then(() => results.push(id));
    const all = ['a', 'b', 'c', 'd'].map(submit);
    await settle();
    expect(writer.statements).toEqual([['a']]);
    writer.release();
    await settle();
    await settle();
    expect(writer.statements).toEqual([['a'], ['b', 'c', 'd']]);
    expect(results).toEqual(['a']);
    writer.release();
    await Promise.all(all);
    expect(results).toEqual(['a', 'b', 'c', 'd']);
  });

  it('writes the jobs of a statement Postgres refused again one by one, so only the bad one fails', async () => {
    const writer = new GatedWriter();
    writer.failMany = postgresError('23505');
    writer.failAlone.add('c');
    const batcher = new AcceptanceBatcher(dataSource, writer, { maxInFlight: 1 });
    const outcomes = ['a', 'b', 'c', 'd'].map((id) => batcher.write(acceptance(id)).then(() => 'ok', (e: Error) => e.message));
    for (let i = 0; i < 10; i++) {
      writer.releaseAll();
      await settle();
    }
    expect(await Promise.all(outcomes)).toEqual(['ok', 'ok', 'duplicate key (23505)', 'ok']);
    expect(writer.statements).toEqual([['a'], ['b', 'c', 'd'], ['b'], ['c'], ['d']]);
  });

  it('gives a lost connection to every job of the statement, without writing any again', async () => {
    const writer = new GatedWriter();
    writer.failMany = Object.assign(new Error('Connection terminated unexpectedly'), { code: 'EPIPE' });
    const batcher = new AcceptanceBatcher(dataSource, writer, { maxInFlight: 1 });
    const outcomes = ['a', 'b', 'c'].map((id) => batcher.write(acceptance(id)).then(() => 'ok', (e: Error) => e.message));
    for (let i = 0; i < 10; i++) {
      writer.releaseAll();
      await settle();
    }
    expect(await Promise.all(outcomes)).toEqual(['ok', 'Connection terminated unexpectedly', 'Connection terminated unexpectedly']);
    expect(writer.statements).toEqual([['a'], ['b', 'c']]);
  });

  it('puts at most maxBatch jobs in one statement', async () => {
    const writer = new GatedWriter();
    const batcher = new AcceptanceBatcher(dataSource, writer, { maxInFlight: 1, maxBatch: 2 });
    const all = ['a', 'b', 'c', 'd', 'e'].map((id) => batcher.write(acceptance(id)));
    for (let i = 0; i < 10; i++) {
      writer.releaseAll();
      await settle();
    }
    await Promise.all(all);
    expect(writer.statements).toEqual([['a'], ['b', 'c'], ['d', 'e']]);
  });
});
