/**
 * An RFC 3339 time with any offset (the contract has checked its form and its years) as the same
 * instant in UTC, `YYYY-MM-DDTHH:MM:SS.ffffffZ`. Postgres reads that form in any session time
 * zone, while an offset beyond ±15:59, which RFC 3339 allows, is an error there. Kept to the
 * microsecond, as Postgres stores times (finer digits are dropped): a `Date` alone would round a
 * job-list bound to the millisecond and move it across jobs created within that millisecond.
 */
export function toUtcInstant(text: string): string {
  const fraction = /\.(\d+)/.exec(text)?.[1] ?? '';
  const micros = fraction.slice(3, 6).padEnd(3, '0');
  return `${new Date(Date.parse(text)).toISOString().slice(0, 23)}${micros}Z`;
}
