// From what one relay-lag repetition stamped to its lag series. Pure.

import type { Arrival } from './arrival.observer';

/** One committed row (or accepted job) and when its event became readable. */
export interface LagSample {
  key: string;
  /** Wall clock just before the INSERT (or the request) was sent. */
  sentAt: number;
  /** Wall clock when the INSERT's answer (or the 202) arrived: the commit had happened by then. */
  ackedAt: number;
  arrival?: Arrival;
}

/** The lag series of one repetition, in ms, one entry per row that was seen. */
export interface LagSeries {
  /** Sent → readable: an upper bound of commit → readable (the commit happened after the send). */
  fromSendMs: number[];
  /** Answered → readable: a lower bound (the commit happened before the answer). */
  fromAckMs: number[];
  /** Answered → the record's timestamp (when Debezium built the change event from the WAL). */
  toConnectorMs: number[];
  /** The record's timestamp → readable: Debezium's queue, the transform, Connect's producer, the broker, the fetch. */
  connectorToReadableMs: number[];
  seen: number;
  /** Committed, but not seen before the wait ended. */
  missing: number;
}

/** Splits the samples' lags; samples without an arrival count as missing. */
export function lagSeries(samples: readonly LagSample[]): LagSeries {
  const series: LagSeries = { fromSendMs: [], fromAckMs: [], toConnectorMs: [], connectorToReadableMs: [], seen: 0, missing: 0 };
  for (const sample of samples) {
    const arrival = sample.arrival;
    if (!arrival) {
      series.missing++;
      continue;
    }
    series.seen++;
    series.fromSendMs.push(arrival.at - sample.sentAt);
    series.fromAckMs.push(arrival.at - sample.ackedAt);
    series.toConnectorMs.push(arrival.recordTimestamp - sample.ackedAt);
    series.connectorToReadableMs.push(arrival.at - arrival.recordTimestamp);
  }
  return series;
}
