import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import {
  ensureNativeStack,
  formatFaultRunReport,
  issueApiKey,
  KafkaProbe,
  ServiceSupervisor,
  startFleet,
  TEST_API_KEY_REQUEST,
  type FaultRunReport,
  type ServiceFleet,
  type SubmitRecord,
} from '@longhaul/testing';
import { FaultRunRepository } from './evidence/fault-run.repository';
import { drainJobs } from './evidence/jobs.drain';
import { collectEvidence, type RunEvidence } from './evidence/run-evidence.collector';
import { faultPlan } from './faults/fault.plan';
import { runFaultSchedule, type ScheduledFault } from './faults/fault.schedule';
import type { Fault, FaultContext } from './faults/fault.types';
import { RecoveryProbe } from './faults/recovery.probe';
import { buildFaultRunReport } from './fault-run-report.builder';
import type { FaultRunConfig } from './fault-run.config';
import { judgeFaultRun, type FaultRunVerdict } from './fault-run.verdict';
import { loadJobRequest } from './load/job-request.factory';
import { JobSubmitter } from './load/job.submitter';
import { RunTimeline } from './run.timeline';

/** What a finished run hands to the assertions. */
export interface FaultRunResult {
  verdict: FaultRunVerdict;
  report: FaultRunReport;
}

/**
 * The fault run, start to end: native stack, the fleet under a supervisor, a steady stream of
 * submits while the fault schedule runs, a drain until every accepted job has finished, the
 * evidence, the verdict and the report. It judges but does not assert; the spec does.
 */
export class FaultRun {
  private readonly timeline = new RunTimeline();
  private readonly faults: Fault[];
  private fleet: ServiceFleet | null = null;
  private supervisor: ServiceSupervisor | null = null;
  private repository: FaultRunRepository | null = null;
  private context: FaultContext | null = null;

  constructor(private readonly config: FaultRunConfig) {
    this.faults = faultPlan(config);
  }

  async execute(): Promise<FaultRunResult> {
    const { config, timeline } = this;
    timeline.log('ensuring the native stack');
    const stack = ensureNativeStack();
    clearLogs(config.logDir);
    const repository = (this.repository = new FaultRunRepository(stack.databaseUrl));
    const kafka = new KafkaProbe(stack.kafkaBrokers);

    timeline.log(`starting ${config.fleet.map((m) => m.instance).join(', ')} on ports ${config.basePort}+ (logs in ${config.logDir})`);
    const fleet = (this.fleet = await startFleet({
      stack,
      logDir: config.logDir,
      basePort: config.basePort,
      members: config.fleet,
      env: config.serviceEnv,
      readyChecks: config.readyChecks,
    }));
    this.supervisor = new ServiceSupervisor({ onEvent: (line) => timeline.log(line) });
    this.supervisor.watch(fleet.members);
    const context = (this.context = { config, fleet, repository, kafka, timeline });

    const apiUrl = fleet.get('api').url;
    // After the api started, which migrated the database; the key lives there, so it outlasts
    // the api restarts and the Postgres restart of the schedule.
    const issued = await issueApiKey({ databaseUrl: stack.databaseUrl, ...TEST_API_KEY_REQUEST, name: 'fault run' });
    timeline.log(`issued API key ${issued.prefix} for tenant ${issued.tenant}`);
    const apiKey = issued.key;
    const submitter = new JobSubmitter({ apiUrl, apiKey, ratePerSecond: config.submitRatePerSecond, maxInFlight: config.maxInFlight });
    timeline.log(`submitting ${config.submitRatePerSecond} jobs/s for the whole schedule, at least ${config.minJobs}`);
    submitter.start(loadJobRequest);
    let scheduled: ScheduledFault[] = [];
    try {
      scheduled = await runFaultSchedule(this.faults, context, new RecoveryProbe(submitter, apiUrl, config.probeTimeoutMs, apiKey));
      await submitter.reach(config.minJobs);
    } finally {
      await submitter.stop();
    }
    const records = submitter.records;
    const jobIds = [...new Set(records.flatMap((r) => (r.jobId ? [r.jobId] : [])))];
    timeline.log(`submitted ${records.length} (${jobIds.length} accepted, ${submitter.skippedTicks} ticks skipped at the in-flight limit); draining`);

    let evidence: RunEvidence;
    try {
      await drainJobs(repository, jobIds, config.drainTimeoutMs, timeline);
      evidence = await collectEvidence(
        { repository, kafka, brokers: stack.kafkaBrokers, logDir: config.logDir, timeline, lifecycleTimeoutMs: config.lifecycleTimeoutMs },
        jobIds,
      );
    } catch (error) {
      // What the faults did is worth having even when the evidence could not be read.
      this.writeReport(this.report(records, scheduled, null, null));
      throw error;
    }
    const verdict = judgeFaultRun(records, scheduled, evidence);
    const report = this.report(records, scheduled, evidence, verdict);
    this.writeReport(report);
    return { verdict, report };
  }

  /**
   * Stops the services and leaves the shared stack whole, whatever state the run ended in (a
   * component the run stopped is started again).
   */
  async dispose(): Promise<void> {
    await this.supervisor?.stop();
    if (this.context) {
      for (const fault of this.faults.filter((f) => f.target === 'stack')) {
        await fault.restore?.(this.context).catch((error: unknown) => this.timeline.log(`could not restore after "${fault.name}": ${(error as Error).message}`));
      }
    }
    await this.fleet?.stop();
    await this.repository?.close();
  }

  private report(
    records: readonly SubmitRecord[],
    faults: readonly ScheduledFault[],
    evidence: RunEvidence | null,
    verdict: FaultRunVerdict | null,
  ): FaultRunReport {
    const restarts = this.supervisor?.restarts ?? [];
    return buildFaultRunReport({ startedAt: this.timeline.startedAt, endedAt: Date.now(), records, faults, restarts, evidence, verdict });
  }

  private writeReport(report: FaultRunReport): void {
    const text = formatFaultRunReport(report);
    mkdirSync(dirname(this.config.reportFile), { recursive: true });
    writeFileSync(this.config.reportFile, text);
    process.stdout.write(`\n${text}\n(written to ${this.config.reportFile})\n`);
  }
}

/** The log folder is the run's own: last run's lines would inflate this run's counts. */
function clearLogs(logDir: string): void {
  mkdirSync(logDir, { recursive: true });
  for (const file of readdirSync(logDir).filter((f) => f.endsWith('.log'))) rmSync(join(logDir, file));
}
