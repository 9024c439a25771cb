import type { JobStatus } from '@longhaul/contracts';

// The dashboard's pages live in the URL's fragment (`#/jobs/<id>`), so one static index.html
// serves every page and a reload or a shared link opens the same view.

/**
 * Every job status, for the status filter. The contracts' list cannot be imported (the browser
 * loads no code of the libs); the check below fails type-checking if the two ever differ.
 */
export const JOB_STATUSES = ['pending', 'running', 'completed', 'failed', 'cancelled'] as const satisfies readonly JobStatus[];
const _everyStatusListed: [Exclude<JobStatus, (typeof JOB_STATUSES)[number]>] extends [never] ? true : false = true;

/**
 * How far back the job list's "Created" filter reaches, by name. Relative, so a kept or shared
 * link means "the last hour" whenever it is opened, and every refresh moves the window on.
 */
export const JOB_WINDOWS = { hour: 3_600_000, day: 86_400_000, week: 7 * 86_400_000 } as const;
export type JobWindow = keyof typeof JOB_WINDOWS;

/** Which page, with what it needs. */
export type Route =
  | { page: 'jobs'; status: JobStatus | null; type: string | null; created: JobWindow | null }
  | { page: 'job'; id: string }
  | { page: 'lanes' }
  | { page: 'dead-letters' }
  | { page: 'dlq-messages'; topic: string | null; errorCode: string | null; pending: boolean }
  | { page: 'api-keys' }
  | { page: 'not-found'; path: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// The api's rules for the filters of `GET /v1/dlq-messages` (it answers anything else with a
// 400): a filter the api would refuse is dropped, as an unknown job status is, so a hand-edited
// URL still shows a list.
const TOPIC = /^[A-Za-z0-9._-]{1,249}$/;
const ERROR_CODE = /^[a-z0-9_]{1,64}$/;

function isJobStatus(value: string | null): value is JobStatus {
  return value !== null && (JOB_STATUSES as readonly string[]).includes(value);
}

function isJobWindow(value: string | null): value is JobWindow {
  return value !== null && Object.hasOwn(JOB_WINDOWS, value);
}

/**
 * The job id in what someone pasted into the job lookup: a bare id, or any text holding one, such
 * as the api's `Location` (`/v1/jobs/<id>`) or a dashboard link (`…#/jobs/<id>`). Lower-cased, as
 * the api writes ids; `null` when the text holds no id.
 */
export function jobIdIn(text: string): string | null {
  const match = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i.exec(text);
  return match ? match[0].toLowerCase() : null;
}

/** The route a fragment names: `''` and `#/` are the job list; an unknown path is `not-found`. */
export function parseRoute(hash: string): Route {
  const fragment = hash.replace(/^#/, '');
  const [rawPath = '', rawQuery = ''] = fragment.split('?', 2);
  const path = rawPath.replace(/^\/+|\/+$/g, '');
  const query = new URLSearchParams(rawQuery);
  const segments = path === '' ? [] : path.split('/').map((segment) => safeDecode(segment));
  if (segments.length === 0 || (segments.length === 1 && segments[0] === 'jobs')) {
    const status = query.get('status');
    const type = query.get('type')?.trim() || null;
    const created = query.get('created');
    return { page: 'jobs', status: isJobStatus(status) ? status : null, type, created: isJobWindow(created) ? created : null };
  }
  if (segments.length === 2 && segments[0] === 'jobs' && UUID.test(segments[1]!)) return { page: 'job', id: segments[1]!.toLowerCase() };
  if (segments.length === 1 && segments[0] === 'lanes') return { page: 'lanes' };
  if (segments.length === 1 && segments[0] === 'dead-letters') return { page: 'dead-letters' };
  if (segments.length === 1 && segments[0] === 'api-keys') return { page: 'api-keys' };
  if (segments.length === 1 && segments[0] === 'dlq-messages') {
    const topic = query.get('topic')?.trim() ?? '';
    const errorCode = query.get('errorCode')?.trim() ?? '';
    return { page: 'dlq-messages', topic: TOPIC.test(topic) ? topic : null, errorCode: ERROR_CODE.test(errorCode) ? errorCode : null, pending: query.get('pending') === 'true' };
  }
  return { page: 'not-found', path: `/${path}` };
}

/** The fragment of a route, `#/…`: what links and filters navigate to. */
export function routeHash(route: Route): string {
  switch (route.page) {
    case 'jobs': {
      const query = new URLSearchParams();
      if (route.status) query.set('status', route.status);
      if (route.type) query.set('type', route.type);
      if (route.created) query.set('created', route.created);
      return withQuery('#/jobs', query);
    }
    case 'job':
      return `#/jobs/${encodeURIComponent(route.id)}`;
    case 'lanes':
      return '#/lanes';
    case 'dead-letters':
      return '#/dead-letters';
    case 'api-keys':
      return '#/api-keys';
    case 'dlq-messages': {
      const query = new URLSearchParams();
      if (route.topic) query.set('topic', route.topic);
      if (route.errorCode) query.set('errorCode', route.errorCode);
      if (route.pending) query.set('pending', 'true');
      return withQuery('#/dlq-messages', query);
    }
    case 'not-found':
      return `#${route.path}`;
  }
}

/** `path` with its filters, or alone when none is set: the unfiltered page keeps a plain URL. */
function withQuery(path: string, query: URLSearchParams): string {
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}

/**
 * The fragment for a path below the dashboard's base written without one
 * (`/dashboard/jobs/<id>` → `#/jobs/<id>`), so such a link opens the page it names; null when the
 * path is the base itself or lies outside it.
 */
export function hashForPath(pathname: string, base: string): string | null {
  if (!pathname.startsWith(base)) return null;
  const rest = pathname.slice(base.length).replace(/^\/+|\/+$/g, '');
  return rest === '' || rest === 'index.html' ? null : `#/${rest}`;
}

/** The section a route belongs to, for the navigation's current-page mark. */
export function sectionOf(route: Route): 'jobs' | 'lanes' | 'dead-letters' | 'dlq-messages' | 'api-keys' | null {
  switch (route.page) {
    case 'jobs':
    case 'job':
      return 'jobs';
    case 'lanes':
    case 'dead-letters':
    case 'dlq-messages':
    case 'api-keys':
      return route.page;
    case 'not-found':
      return null;
  }
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
