import type { DeadLetterListView, DeadLetterView } from '@longhaul/contracts';
import { inTransaction, withConnection, type DataSource } from '@longhaul/persistence';
import type { Logger } from '@longhaul/telemetry';
import { DeadLetterNotFoundError, JobFinishedError } from '../job.errors';
import { JobRepository } from '../job.repository';
import type { JobTransitions } from '../lifecycle/job.transitions';
import type { StepDispatcher } from '../lifecycle/step.dispatcher';
import { DeadLetterRepository, type DeadLetterFilter } from './dead-letter.repository';

/** The outcome of a replay: the dead letter as it is now, and whether this call started the run. */
export interface ReplayResult {
  deadLetter: DeadLetterView;
  started: boolean;
}

/**
 * Dead letters: steps whose retries ran out, kept with their last error, request, attempt
 * history and trace. A replay starts a new attempt series of the step (the job reopens); the
 * dead letter remembers it, so replaying twice runs it once.
 */
export class DeadLetterService {
  private readonly letters = new DeadLetterRepository();
  private readonly jobs = new JobRepository();

  constructor(
    private readonly dataSource: DataSource,
    private readonly transitions: JobTransitions,
    private readonly dispatcher: StepDispatcher,
    private readonly logger: Logger,
  ) {}

  list(filter: DeadLetterFilter): Promise<DeadLetterListView> {
    return withConnection(this.dataSource, async (sql) => ({
      items: await this.letters.list(sql, filter),
      groups: await this.letters.groups(sql, filter),
    }));
  }

  async get(id: string, tenantId: string): Promise<DeadLetterView> {
    const letter = await withConnection(this.dataSource, (sql) => this.letters.find(sql, id, tenantId));
    if (!letter) throw new DeadLetterNotFoundError(id);
    return letter;
  }

  async replay(id: string, tenantId: string): Promise<ReplayResult> {
    return inTransaction(this.dataSource, async (sql) => {
      const letter = await this.letters.find(sql, id, tenantId, { lock: true });
      if (!letter) throw new DeadLetterNotFoundError(id);
      if (letter.replayedAt) return { deadLetter: letter, started: false };
      const state = await this.jobs.lock(sql, letter.jobId);
      const step = state?.steps.find((s) => s.name === letter.step);
      if (!state || !step) throw new DeadLetterNotFoundError(id);
      if (step.status !== 'dead' || state.job.status !== 'failed') throw new JobFinishedError(state.job.id, state.job.status);
      const { job, steps } = state;
      await this.transitions.moveStep(
        sql, job, step, 'queued',
        { attempt: step.attempt + 1, failures: 0, error: null, result: null, finishedAt: null, dueAt: null, deadLetterId: null },
        { reason: 'replay' },
      );
      for (const later of steps) {
        if (later.position > step.position && later.status === 'cancelled') {
          await this.transitions.moveStep(sql, job, later, 'pending', { finishedAt: null }, { reason: 'replay' });
        }
      }
      await this.transitions.moveJob(sql, job, 'running', { reason: 'replay' });
      await this.dispatcher.dispatch(sql, job, steps, step, { ownTrace: true });
      await this.letters.markReplayed(sql, id, step.attempt);
      this.logger.info({ job_id: job.id, dead_letter: id, step: step.name, attempt: step.attempt }, 'dead letter replayed');
      return { deadLetter: (await this.letters.find(sql, id, tenantId))!, started: true };
    });
  }

  async delete(id: string, tenantId: string): Promise<void> {
    const deleted = await inTransaction(this.dataSource, (sql) => this.letters.delete(sql, id, tenantId));
    if (!deleted) throw new DeadLetterNotFoundError(id);
  }
}
