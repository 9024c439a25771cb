// The relay-lag benchmark's repetitions as the report shows them: method, tables, target, and
// what the split of the lag says when the target is missed.

import type { BenchmarkResult, TargetCheck } from '../benchmark';
import { formatSummary, seconds, summarize, type Summary } from '../stats';
import { latencyPercentiles } from './latency.percentiles';
import { formatStatusCounts, milliseconds, perSecond } from './load-run';
import type { LagRep } from './relay-lag.runs';
import type { RelaySetting } from './relay-settings.reader';

/** What the benchmark ran with, for the method. */
export interface RelayLagPlan {
  ratePerSecond: number;
  durationMs: number;
  apiDurationMs: number;
  probeInFlight: number;
  apiInFlight: number;
  targetP99Ms: number;
  probeSchema: string;
  probeTopic: string;
  serviceEnv: string;
}

/** Everything measured. `api` is empty when that variant could not run (`apiSkipped` says why). */
export interface RelayLagMeasured {
  plan: RelayLagPlan;
  settings: { from: string; settings: RelaySetting[] };
  probe: LagRep[];
  api: LagRep[];
  apiSkipped?: string;
}

type SeriesKey = 'fromSendMs' | 'fromAckMs' | 'toConnectorMs' | 'connectorToReadableMs';

/** Median (min–max) over the repetitions of one percentile of one series; null if no repetition saw anything. */
function over(reps: readonly LagRep[], key: SeriesKey, pick: 'p50' | 'p99' | 'max'): Summary | null {
  const values = reps.filter((r) => r[key].length > 0).map((r) => latencyPercentiles(r[key])[pick]);
  return values.length > 0 ? summarize(values) : null;
}

const ms = (s: Summary | null): string => (s ? formatSummary(s, milliseconds) : '–');

export function relayLagReport(id: string, title: string, m: RelayLagMeasured): BenchmarkResult {
  const { plan } = m;
  const setting = (key: string) => m.settings.settings.find((s) => s.key === key);
  const judged = over(m.probe, 'fromSendMs', 'p99');
  const target = judgedTarget(m, judged);

  const lagRow = (label: string, reps: LagRep[], key: SeriesKey): string[] => [
    label,
    reps.length > 0 ? `${perSecond(plan.ratePerSecond)} → ${formatSummary(summarize(reps.map((r) => r.pace.achievedRatePerSecond)), perSecond)}` : '–',
    reps.length > 0 ? formatSummary(summarize(reps.map((r) => r.seen)), (v) => v.toFixed(0)) : '–',
    ms(over(reps, key, 'p50')),
    ms(over(reps, key, 'p99')),
    ms(over(reps, key, 'max')),
    reps.length > 0 ? String(reps.reduce((n, r) => n + r.missing, 0)) : '–',
  ];
  const splitRow = (label: string, reps: LagRep[]): string[] => [
    label,
    `${ms(over(reps, 'toConnectorMs', 'p50'))} / ${ms(over(reps, 'toConnectorMs', 'p99'))}`,
    `${ms(over(reps, 'connectorToReadableMs', 'p50'))} / ${ms(over(reps, 'connectorToReadableMs', 'p99'))}`,
  ];
  const repRows = (label: string, reps: LagRep[]): string[][] =>
    reps.map((r, i) => {
      const lag = r.fromSendMs.length > 0 ? latencyPercentiles(r.fromSendMs) : null;
      return [
        label,
        String(i + 1),
        `${r.pace.sent}${r.pace.unsent > 0 ? ` (${r.pace.unsent} not sent: the window ended)` : ''}`,
        perSecond(r.pace.achievedRatePerSecond),
        milliseconds(r.pace.lateness.p99),
        String(r.pace.heldByCap),
        String(r.committed),
        formatStatusCounts(r.refusedByStatus),
        lag ? milliseconds(lag.p50) : '–',
        lag ? milliseconds(lag.p99) : '–',
        lag ? milliseconds(lag.max) : '–',
        String(r.missing),
        label === 'api' ? (r.drainMs === null ? `not within the limit (${r.undrained} left)` : seconds(r.drainMs)) : '–',
      ];
    });

  return {
    id,
    title,
    method: method(m, setting),
    tables: [
      {
        caption: `Relay lag at ${perSecond(plan.ratePerSecond)} offered (probe rows for ${seconds(plan.durationMs)}, the api for ${seconds(plan.apiDurationMs)} per repetition), median (min–max) over the repetitions`,
        table: {
          columns: ['load, measured from', 'rate offered → achieved', 'events timed', 'p50', 'p99', 'max', 'not seen'],
          rows: [
            lagRow('probe rows, before the INSERT (judged)', m.probe, 'fromSendMs'),
            lagRow("probe rows, the INSERT's answer", m.probe, 'fromAckMs'),
            lagRow('via the api, before the request', m.api, 'fromSendMs'),
            lagRow('via the api, the 202', m.api, 'fromAckMs'),
          ],
        },
      },
      {
        caption: 'Where the time goes: p50 / p99 of each part, median over the repetitions (the split is the record timestamp Debezium sets)',
        table: {
          columns: ['load', 'answer → Debezium built the change event', 'change event → readable by a consumer'],
          rows: [splitRow('probe rows', m.probe), splitRow('via the api', m.api)],
        },
      },
      {
        caption: `Relay settings in force (from ${m.settings.from})`,
        table: {
          columns: ['setting', 'value', 'set by', 'what it does to lag'],
          rows: m.settings.settings.map((s) => [`\`${s.key}\``, s.value, s.source === 'connector' ? 'connector config' : 'default', s.effect]),
        },
      },
      {
        caption: 'Each repetition (lag from the send)',
        table: {
          columns: ['load', 'rep', 'sent', 'achieved', 'send lateness p99', 'held by the in-flight cap', 'committed / accepted', 'refused', 'p50', 'p99', 'max', 'not seen', 'jobs drained in'],
          rows: [...repRows('probe', m.probe), ...repRows('api', m.api)],
        },
      },
    ],
    targets: [target],
    findings: findings(m, judged, setting),
  };
}

function judgedTarget(m: RelayLagMeasured, judged: Summary | null): TargetCheck {
  const name = `relay lag p99 at ${perSecond(m.plan.ratePerSecond)} (outbox commit → readable in Kafka, probe rows)`;
  const goal = `≤ ${m.plan.targetP99Ms} ms`;
  if (!judged) return { name, target: goal, measured: 'not measured', met: null };
  const achieved = summarize(m.probe.map((r) => r.pace.achievedRatePerSecond));
  const caveats: string[] = [];
  if (achieved.median < 0.95 * m.plan.ratePerSecond) caveats.push(`only ${perSecond(achieved.median)} could be offered`);
  if (judged.min <= m.plan.targetP99Ms && judged.max > m.plan.targetP99Ms) caveats.push('the repetitions fall on both sides of the target');
  if (m.probe.some((r) => r.missing > 0)) caveats.push('some rows were never seen');
  return { name, target: goal, measured: formatSummary(judged, milliseconds), met: judged.median <= m.plan.targetP99Ms, ...(caveats.length > 0 ? { caveat: caveats.join('; ') } : {}) };
}

function method(m: RelayLagMeasured, setting: (key: string) => RelaySetting | undefined): string[] {
  const { plan } = m;
  return [
    `The relay is the Debezium Postgres connector \`longhaul-outbox\` on the stack's Kafka Connect (pgoutput, one task, the EventRouter transform); its settings that bear on lag are listed below ` +
      `(\`poll.interval.ms\` ${setting('poll.interval.ms')?.value}, \`producer.override.linger.ms\` ${setting('producer.override.linger.ms')?.value}). Nothing was changed for the benchmark.`,
    `**Probe rows (the judged figure: the relay alone).** The benchmark creates \`${plan.probeSchema}.outbox\` with the DDL every service's outbox is made with and adds it to the \`longhaul_outbox\` publication, ` +
      `so the connector relays its rows exactly as it relays the api's; each row is a \`TranscodeRequested.v1\` payload of the submit benchmarks' job (the same size as the api's own request row), ` +
      `routed to the bench's own topic \`${plan.probeTopic}\` (6 partitions, created for the run), so no Longhaul consumer sees it. Rows are INSERTed one per transaction (autocommit, as each submit commits one outbox row) ` +
      `from a pool of ${plan.probeInFlight} connections, at ${perSecond(plan.ratePerSecond)} for ${seconds(plan.durationMs)} per repetition; no Longhaul service runs meanwhile. ` +
      `The schema and the topic are removed at the end.`,
    `**Via the api (for comparison, not judged).** The four services run (${plan.serviceEnv}); \`POST /v1/jobs\` with the submit benchmarks' body is offered at the same rate for ${seconds(plan.apiDurationMs)} per repetition from a keep-alive pool ` +
      `with at most ${plan.apiInFlight} requests in flight, and the event timed is each accepted job's \`TranscodeRequested.v1\` on \`transcode.requests.fast\`. ` +
      `The window is shorter than the probe rows' because this machine cannot take the rate through the api while the pipeline runs (the achieved rate is in the tables) and every accepted job must then run to its end at the pipeline's pace. ` +
      `The jobs then run through the pipeline, so the relay also carries every step's and the saga's events and the machine's two cores serve every service: this is the relay under the whole system's load. ` +
      `After each repetition the benchmark waits for every accepted job to end, so the next one starts idle and nothing is left on the request topics for the stack's next user. ` +
      "Once the services stop, the benchmark tenant's finished jobs are deleted with what the services recorded of them, and those tables vacuumed (`finished-jobs.remover.ts`), so the next benchmark starts on tables of the same size.",
    `**Pacing.** Open loop: send *i* is due at start + *i* ÷ rate, computed from the start so timer lateness never accumulates; a send that is due while the in-flight cap is reached waits and goes out late ` +
      `(the repetition table shows lateness and how many sends the cap held); the offer ends with the window, so sends the cap still held then are not sent, and counted. The achieved rate is (sends − 1) ÷ (last send − first send).`,
    `**Timing.** Every instant is this machine's wall clock (Postgres, Kafka Connect and the bench read the same kernel clock). *Sent* is taken just before the INSERT (or request) is handed to its client, ` +
      `*answered* when its answer (the 202) arrives; the commit lies between the two, so lag from *sent* is an upper bound of commit → readable and lag from *answered* a lower bound; the target is judged on the upper bound. ` +
      `*Readable* is when the benchmark's own kafkajs consumer (its own group, starting at the topic's end, partitions fetched concurrently) is handed the fetch that carries the record, keyed by the row's aggregate id (the job id). ` +
      `The consumer's fetch is a long poll that the broker answers as soon as a record is appended, so this adds one fetch round trip on the loopback interface, as it would for any consumer. ` +
      `Each repetition waits until every committed row has been seen (or 30 s, counting the rest as not seen). A warm-up (rows and jobs not timed) first confirms the consumer sees its events. ` +
      `The record's timestamp is set by Debezium's EventRouter to the change event's \`ts_ms\`, the moment the connector built the event from the WAL: it splits the lag into WAL decoding before it and Debezium's queue, the transform, Connect's producer, the broker and the fetch after it (millisecond resolution).`,
  ];
}

function findings(m: RelayLagMeasured, judged: Summary | null, setting: (key: string) => RelaySetting | undefined): string[] {
  const out: string[] = [];
  if (m.apiSkipped) out.push(`The api variant was not measured: ${m.apiSkipped}`);
  if (!judged) return out;
  const { plan } = m;
  const pollMs = Number(setting('poll.interval.ms')?.value);
  const batch = Number(setting('max.batch.size')?.value);
  const before = over(m.probe, 'toConnectorMs', 'p99');
  const after = over(m.probe, 'connectorToReadableMs', 'p99');
  const afterP50 = over(m.probe, 'connectorToReadableMs', 'p50');
  const met = judged.median <= plan.targetP99Ms;
  out.push(
    `${met ? 'Target met' : '**Target missed**'}: at ${perSecond(plan.ratePerSecond)} the relay's p99 from before the INSERT is ${formatSummary(judged, milliseconds)} against ${plan.targetP99Ms} ms. ` +
      `Split at the record timestamp, the p99 of the part up to Debezium's change event is ${ms(before)} and of the part after it ${ms(after)} (p50 ${ms(afterP50)}).`,
  );
  if (Number.isFinite(pollMs) && Number.isFinite(batch) && (plan.ratePerSecond * pollMs) / 1000 < batch) {
    out.push(
      `What the part after the change event holds: Debezium's task returns a batch to Connect when \`max.batch.size\` (${batch}) events are queued or \`poll.interval.ms\` (${pollMs} ms) after it began to wait. ` +
        `At ${perSecond(plan.ratePerSecond)} only about ${Math.round((plan.ratePerSecond * pollMs) / 1000)} events arrive in ${pollMs} ms, so a batch never fills and every batch waits out the interval: ` +
        `an event waits between 0 and ${pollMs} ms in the queue, about ${pollMs / 2} ms at the median and close to ${pollMs} ms at p99, before Connect's producer (\`linger.ms\` ${setting('producer.override.linger.ms')?.value}) sends it. ` +
        `${met ? 'The target holds, but with that wait built in the margin is what the other parts leave.' : `With ${pollMs} ms of that wait alone the p99 cannot be below ${plan.targetP99Ms} ms; the interval (or a smaller batch size) is what a tuning step would change.`}`,
    );
  }
  const beforeP50 = over(m.probe, 'toConnectorMs', 'p50');
  if (Number.isFinite(pollMs) && before && beforeP50 && before.median >= 0.6 * pollMs && beforeP50.median < 0.2 * pollMs) {
    out.push(
      `What the part up to the change event holds: most rows become change events within a millisecond of their commit (p50 ${ms(beforeP50)}), but the p99 (${ms(before)}) is close to the poll interval. ` +
        `Debezium's Postgres reader pauses for \`poll.interval.ms\` after a few reads of the replication stream find nothing; a row committed during such a pause waits for its end. ` +
        `So a row can wait out the interval twice, once in the reader and once in the queue, which is what the maxima (${ms(over(m.probe, 'fromSendMs', 'max'))}) show.`,
    );
  }
  if (m.api.length > 0) {
    const apiP99 = over(m.api, 'fromSendMs', 'p99');
    const accepted = summarize(m.api.map((r) => (r.pace.elapsedMs > 0 ? r.committed / (r.pace.elapsedMs / 1000) : 0)));
    const refused = m.api.reduce((n, r) => n + Object.values(r.refusedByStatus).reduce((a, b) => a + b, 0), 0);
    const undrained = m.api.reduce((n, r) => n + r.undrained, 0);
    out.push(
      `Via the api, with the whole pipeline running, the p99 from before the request is ${ms(apiP99)} (from the 202: ${ms(over(m.api, 'fromAckMs', 'p99'))}); ` +
        `the api accepted ${formatSummary(accepted, perSecond)} of the ${perSecond(plan.ratePerSecond)} offered${refused > 0 ? ` and refused ${refused} requests over the repetitions (${formatStatusCounts(sumCounts(m.api))})` : ''}. ` +
        `The difference to the probe rows is the rest of the system: the relay carries each job's further events (requests, step results, lifecycle) and shares two cores with the four services and the bench.` +
        (undrained > 0 ? ` **${undrained} accepted jobs had not ended within a repetition's drain limit**, so later repetitions started with a backlog; the benchmark waited for them again before it stopped the services.` : ''),
    );
  }
  return out;
}

function sumCounts(reps: readonly LagRep[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of reps) for (const [status, n] of Object.entries(r.refusedByStatus)) out[status] = (out[status] ?? 0) + n;
  return out;
}
