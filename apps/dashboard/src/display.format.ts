// How figures and times read on the dashboard. Pure functions, so their output is tested.

const pad = (value: number, width = 2): string => String(value).padStart(width, '0');

/** A moment in the viewer's time zone, `2025-12-01 10:00:05`; `—` for none. */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())} ${pad(at.getHours())}:${pad(at.getMinutes())}:${pad(at.getSeconds())}`;
}

/** A length of time: `850 ms`, `4.2 s`, `3 min 05 s`, `2 h 03 min`; `—` for none. */
export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '—';
  const value = Math.max(0, ms);
  if (value < 1000) return `${Math.round(value)} ms`;
  if (value < 60_000) return `${(value / 1000).toFixed(1)} s`;
  const seconds = Math.floor(value / 1000);
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ${pad(seconds % 60)} s`;
  return `${Math.floor(seconds / 3600)} h ${pad(Math.floor((seconds % 3600) / 60))} min`;
}

/** Milliseconds from `from` to `to` (or to `now`); null when `from` is missing. */
export function elapsedMs(from: string | null | undefined, to: string | null | undefined, now: number): number | null {
  if (!from) return null;
  const start = Date.parse(from);
  const end = to ? Date.parse(to) : now;
  return Number.isNaN(start) || Number.isNaN(end) ? null : Math.max(0, end - start);
}

/** A fraction done as a whole percentage, `42 %`; `—` for none. */
export function formatPercent(fraction: number | null | undefined): string {
  if (fraction === null || fraction === undefined || !Number.isFinite(fraction)) return '—';
  return `${Math.round(Math.min(1, Math.max(0, fraction)) * 100)} %`;
}

/** A rate per second with sensible precision: `0`, `0.017/s`, `2.5/s`, `120/s`. */
export function formatRate(perSecond: number): string {
  if (perSecond === 0) return '0';
  if (perSecond < 0.1) return `${perSecond.toFixed(3)}/s`;
  if (perSecond < 10) return `${perSecond.toFixed(1)}/s`;
  return `${Math.round(perSecond)}/s`;
}

/** A count that may be unknown: `—` for null. */
export function formatCount(value: number | null | undefined): string {
  return value === null || value === undefined ? '—' : value.toLocaleString('en-US');
}

/** The first block of a UUID, enough to tell jobs apart in a list (the full id is in its link). */
export function shortId(id: string): string {
  return id.split('-')[0] ?? id;
}
