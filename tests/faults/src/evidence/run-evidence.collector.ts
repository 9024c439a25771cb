import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { DEAD_LETTER_TOPICS, Topics } from '@longhaul/contracts';
import {
  countLogMessages,
  lastVersionByJob,
  TopicReader,
  waitFor,
  type KafkaProbe,
  type LedgerRow,
  type ProbedMessage,
  type StepRow,
} from '@longhaul/testing';
import type { RunTimeline } from '../run.timeline';
import { LEDGER_SCHEMAS, type FaultRunRepository, type LedgerSchema, type RunJobRow } from './fault-run.repository';

/** Everything the checks judge, read once the run has drained. */
export interface RunEvidence {
  jobs: RunJobRow[];
  steps: StepRow[];
  ledgers: Record<LedgerSchema, LedgerRow[]>;
  deadLetters: number;
  /** `job.lifecycle` messages of the run's jobs, in arrival order. */
  lifecycle: ProbedMessage[];
  /** Whether every job's last lifecycle event arrived before the wait ended. */
  lifecycleComplete: boolean;
  /** Messages in `<topic>.dlq` since the run started, by dead-letter topic. */
  deadLetteredMessages: Record<string, number>;
  /**
   * Of those, how many the api recorded (`api.dlq_messages`), by dead-letter topic, once it had
   * recorded them all or the wait ended.
   */
  recordedDeadLetteredMessages: Record<string, number>;
  /** `duplicate event suppressed` log lines, by instance. */
  duplicatesSuppressed: Record<string, number>;
}

/** Where the collector reads from. */
export interface EvidenceSources {
  repository: FaultRunRepository;
  kafka: KafkaProbe;
  brokers: string;
  logDir: string;
  timeline: RunTimeline;
  lifecycleTimeoutMs: number;
}

const DUPLICATE_LOG_MESSAGE = 'duplicate event suppressed';

/** Reads the database, Kafka and the services' logs for the run's jobs. */
export async function collectEvidence(sources: EvidenceSources, jobIds: readonly string[]): Promise<RunEvidence> {
  const { repository, timeline } = sources;
  const jobs = await repository.jobs(jobIds);
  const { messages: lifecycle, complete: lifecycleComplete } = await readLifecycle(sources, jobs);
  timeline.log(`read ${lifecycle.length} lifecycle messages of the run's jobs${lifecycleComplete ? '' : ' (the last events of some jobs did not arrive)'}`);
  const steps = await repository.steps(jobIds);
  const ledgers = {} as Record<LedgerSchema, LedgerRow[]>;
  for (const schema of LEDGER_SCHEMAS) ledgers[schema] = await repository.ledger(schema, jobIds);
  const deadLetteredMessages: Record<string, number> = {};
  for (const topic of DEAD_LETTER_TOPICS) {
    deadLetteredMessages[topic] = await sources.kafka.countSince(topic, timeline.startedAt);
  }
  const recordedDeadLetteredMessages = await readRecordedDeadLetters(sources, deadLetteredMessages);
  return {
    jobs,
    steps,
    ledgers,
    deadLetters: await repository.deadLetters(jobIds),
    lifecycle,
    lifecycleComplete,
    deadLetteredMessages,
    recordedDeadLetteredMessages,
    duplicatesSuppressed: countDuplicateLogLines(sources.logDir),
  };
}

/**
 * Reads `job.lifecycle` from the beginning in a fresh consumer group, keeping the run's jobs,
 * until every job's last event (its `api.jobs.lifecycle_version`) has arrived or the wait times out: the
 * relay may still be sending the last events when the jobs are already finished in the table.
 */
async function readLifecycle(sources: EvidenceSources, jobs: readonly RunJobRow[]): Promise<{ messages: ProbedMessage[]; complete: boolean }> {
  const ids = new Set(jobs.map((j) => j.id));
  const reader = new TopicReader({ brokers: sources.brokers, topic: Topics.jobLifecycle, acceptKey: (key) => key !== null && ids.has(key) });
  await reader.start();
  try {
    const complete = await waitFor(
      async () => {
        if (!(await reader.caughtUp())) return false;
        const last = lastVersionByJob(reader.messages);
        return jobs.every((job) => (last.get(job.id) ?? 0) >= job.version);
      },
      { timeoutMs: sources.lifecycleTimeoutMs, intervalMs: 1_000, description: 'the last lifecycle event of every job' },
    ).catch(() => false);
    return { messages: [...reader.messages], complete };
  } finally {
    await reader.stop();
  }
}

/**
 * The api's record of the run's dead-lettered messages, waiting until it holds as many as the
 * topics (the recorder reads them a moment after they are written) or the lifecycle wait's time
 * has passed; then whatever it holds, for the check to judge.
 */
async function readRecordedDeadLetters(sources: EvidenceSources, inKafka: Record<string, number>): Promise<Record<string, number>> {
  const since = new Date(sources.timeline.startedAt);
  let recorded: Record<string, number> = {};
  await waitFor(
    async () => {
      recorded = await sources.repository.recordedDeadLetteredMessages(since);
      return Object.entries(inKafka).every(([topic, count]) => (recorded[topic] ?? 0) >= count);
    },
    { timeoutMs: sources.lifecycleTimeoutMs, intervalMs: 1_000, description: "the api's record of every dead-lettered message" },
  ).catch(() => false);
  return recorded;
}

function countDuplicateLogLines(logDir: string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const file of readdirSync(logDir).filter((f) => f.endsWith('.log'))) {
    counts[basename(file, '.log')] = countLogMessages(readFileSync(join(logDir, file), 'utf8'), DUPLICATE_LOG_MESSAGE);
  }
  return counts;
}
