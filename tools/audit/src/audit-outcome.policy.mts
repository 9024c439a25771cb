/**
 * What one `npm audit --json` run means for CI. Pure: it reads the run's exit code and output.
 *
 * In:  the exit code and stdout of `npm audit --omit=dev --audit-level=<level> --json`.
 * Out: `passed` (a report with nothing at or above the level), `failed` (a report with
 *      findings at or above it), `unavailable` (the registry's advisory endpoint could not be
 *      asked: it is missing, refuses the method, is down, or the network is), or `broken`
 *      (anything else: npm itself failed, or answered something unknown).
 *
 * Only `unavailable` lets CI go on without an audit, and only when npm's error names the
 * advisory endpoint; a report is always judged by its findings.
 */

export const SEVERITIES = ['info', 'low', 'moderate', 'high', 'critical'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** One vulnerable package of a report. */
export interface Finding {
  readonly name: string;
  readonly severity: Severity;
  /** Advisory titles and URLs, or the names of the vulnerable packages it depends on. */
  readonly via: readonly string[];
  readonly range: string;
}

export type AuditOutcome =
  | { readonly kind: 'passed'; readonly counts: Readonly<Record<Severity, number>>; readonly findings: readonly Finding[] }
  | { readonly kind: 'failed'; readonly counts: Readonly<Record<Severity, number>>; readonly findings: readonly Finding[] }
  | { readonly kind: 'unavailable'; readonly reason: string }
  | { readonly kind: 'broken'; readonly reason: string };

/** HTTP statuses that say the endpoint is not there or not serving, rather than that the request was wrong. */
const UNAVAILABLE_STATUSES = new Set([404, 405, 410, 501, 502, 503, 504]);

/** Connection failures npm reports without a status. */
const NETWORK_ERROR = /\b(ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|ENETDOWN|socket hang up)\b|request to \S+ failed/i;

/** The registry paths of npm's advisory endpoints (bulk, and the older quick audit). */
const ADVISORY_ENDPOINT = /\/-\/npm\/v1\/security\//;

/** Severities at or above `level`. */
export function severitiesFrom(level: Severity): readonly Severity[] {
  return SEVERITIES.slice(SEVERITIES.indexOf(level));
}

export function classifyAudit(run: { exitCode: number | null; stdout: string }, level: Severity): AuditOutcome {
  let json: unknown;
  try {
    json = JSON.parse(run.stdout);
  } catch {
    return { kind: 'broken', reason: `npm audit exited ${run.exitCode} without a JSON answer` };
  }
  if (!isObject(json)) return { kind: 'broken', reason: 'npm audit answered JSON that is not an object' };

  if (isObject(json['metadata']) && isObject(json['metadata']['vulnerabilities'])) {
    const counts = countsOf(json['metadata']['vulnerabilities']);
    const findings = findingsOf(json['vulnerabilities']);
    const blocking = severitiesFrom(level).reduce((sum, severity) => sum + counts[severity], 0);
    return { kind: blocking > 0 ? 'failed' : 'passed', counts, findings };
  }

  const message = typeof json['message'] === 'string' ? json['message'] : '';
  const uri = typeof json['uri'] === 'string' ? json['uri'] : '';
  const status = typeof json['statusCode'] === 'number' ? json['statusCode'] : undefined;
  const atEndpoint = ADVISORY_ENDPOINT.test(uri) || ADVISORY_ENDPOINT.test(message);
  if (atEndpoint && status !== undefined && UNAVAILABLE_STATUSES.has(status)) return { kind: 'unavailable', reason: message || `HTTP ${status} from ${uri}` };
  if (atEndpoint && status === undefined && NETWORK_ERROR.test(message)) return { kind: 'unavailable', reason: message };
  return { kind: 'broken', reason: message || `npm audit exited ${run.exitCode} with an unknown answer` };
}

function countsOf(raw: Record<string, unknown>): Record<Severity, number> {
  const counts = Object.fromEntries(SEVERITIES.map((severity) => [severity, 0])) as Record<Severity, number>;
  for (const severity of SEVERITIES) {
    const value = raw[severity];
    if (typeof value === 'number') counts[severity] = value;
  }
  return counts;
}

function findingsOf(raw: unknown): Finding[] {
  if (!isObject(raw)) return [];
  return Object.values(raw)
    .filter(isObject)
    .map((entry) => ({
      name: String(entry['name']),
      severity: (SEVERITIES as readonly unknown[]).includes(entry['severity']) ? (entry['severity'] as Severity) : 'info',
      via: Array.isArray(entry['via'])
        ? entry['via'].map((via) => (isObject(via) ? `${String(via['title'])} ${String(via['url'] ?? '')}`.trim() : String(via)))
        : [],
      range: String(entry['range'] ?? ''),
    }))
    .sort((a, b) => SEVERITIES.indexOf(b.severity) - SEVERITIES.indexOf(a.severity) || a.name.localeCompare(b.name));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
