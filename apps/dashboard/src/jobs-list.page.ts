import type { JobSummaryView } from '@longhaul/contracts';
import { describeError, listJobs } from './api.client.js';
import { el, keepingFocus, replaceChildren } from './dom.builder.js';
import { appendPage, mergeTopOfList, withinWindow, type JobListState } from './job-list.merge.js';
import type { Page, PageContext } from './page.context.js';
import { startRefreshLoop } from './refresh.loop.js';
import { JOB_STATUSES, JOB_WINDOWS, jobIdIn, routeHash, type JobWindow, type Route } from './route.policy.js';
import { emptyState, errorNotice, filterForm, jobLink, progressBar, statusBadge, timeOf, updatedNote } from './widgets.view.js';

/** Jobs per page ("More" loads the next). */
const PAGE_SIZE = 20;
/** The most `GET /v1/jobs` returns at once: a refresh re-reads at most this many of the newest. */
const MAX_LIMIT = 100;
/** How often the list is read again. A list poll is one indexed query; event streams stay on the job page. */
const REFRESH_MS = 3000;

type JobsRoute = Extract<Route, { page: 'jobs' }>;

/** The "Created" filter's choices, in the order shown. */
const WINDOW_LABELS: Record<JobWindow, string> = { hour: 'last hour', day: 'last 24 hours', week: 'last 7 days' };

/** The list's filters as `GET /v1/jobs` takes them; the window's start is taken at each read. */
function filtersOf(route: JobsRoute): { status: JobsRoute['status']; type: string | null; createdSince: string | null } {
  return { status: route.status, type: route.type, createdSince: route.created ? new Date(Date.now() - JOB_WINDOWS[route.created]).toISOString() : null };
}

/**
 * The job list: newest first, filtered by status, type and age (kept in the URL), paged with "More",
 * and read again every few seconds so statuses and progress move on their own.
 */
export function mountJobsList(view: HTMLElement, route: JobsRoute, _context: PageContext): Page {
  let state: JobListState = { rows: [], nextCursor: null };
  let loaded = false;
  const updated = updatedNote('jobs-updated');
  const problem = el('div', { attrs: { 'aria-live': 'polite' } });
  const body = el('tbody', { testId: 'jobs-rows' });
  const table = el(
    'table',
    { testId: 'jobs-table', className: 'grid' },
    el('caption', { className: 'visually-hidden' }, 'Jobs, newest first'),
    el('thead', {}, el('tr', {}, ...['Job', 'Type', 'Status', 'Progress', 'Created', 'Updated'].map((title) => el('th', { attrs: { scope: 'col' } }, title)))),
    body,
  );
  const empty = emptyState(route.status || route.type || route.created ? 'No job matches these filters.' : 'No jobs yet.', 'jobs-empty');
  const more = el('button', { testId: 'jobs-more', attrs: { type: 'button' }, data: { focusKey: 'more' } }, 'More');

  const render = () => {
    empty.hidden = !loaded || state.rows.length > 0;
    table.hidden = state.rows.length === 0;
    more.hidden = state.nextCursor === null;
    keepingFocus(body, () => renderRows(body, state.rows));
  };
  const refresh = async () => {
    try {
      const limit = Math.min(MAX_LIMIT, Math.max(PAGE_SIZE, state.rows.length));
      const filters = filtersOf(route);
      state = withinWindow(mergeTopOfList(state, await listJobs({ ...filters, limit })), filters.createdSince);
      loaded = true;
      replaceChildren(problem);
      updated.mark();
      render();
    } catch (error) {
      replaceChildren(problem, errorNotice(describeError(error)));
    }
  };
  more.addEventListener('click', async () => {
    if (state.nextCursor === null) return;
    more.disabled = true;
    try {
      state = appendPage(state, await listJobs({ ...filtersOf(route), limit: PAGE_SIZE, cursor: state.nextCursor }));
      render();
    } catch (error) {
      replaceChildren(problem, errorNotice(describeError(error)));
    } finally {
      more.disabled = false;
    }
  });

  replaceChildren(view, el('h2', {}, 'Jobs'), jobLookup(), jobFilters(route), updated.element, problem, table, empty, more);
  render();
  void refresh();
  const loop = startRefreshLoop(refresh, REFRESH_MS);
  return { dispose: () => loop.stop() };
}

/**
 * Opens one job by its id, whatever the list shows: the id, or a text holding it (the api's
 * `Location`, a dashboard link) pasted in. Text without an id is answered here; an id of no job
 * of the key's tenant is answered by the job page.
 */
function jobLookup(): HTMLElement {
  const input = el('input', {
    testId: 'job-lookup-id',
    attrs: { id: 'job-lookup-id', name: 'id', type: 'search', placeholder: 'job id or link', autocomplete: 'off', spellcheck: 'false', 'aria-describedby': 'job-lookup-problem' },
  });
  const problem = el('span', { testId: 'job-lookup-problem', className: 'field-problem', attrs: { id: 'job-lookup-problem', 'aria-live': 'polite' } });
  const clear = () => {
    problem.textContent = '';
    input.removeAttribute('aria-invalid');
  };
  input.addEventListener('input', clear);
  return el(
    'form',
    {
      testId: 'job-lookup',
      className: 'filters',
      attrs: { role: 'search', 'aria-label': 'Open a job by id' },
      on: {
        submit: (event) => {
          event.preventDefault();
          const text = input.value.trim();
          const id = jobIdIn(text);
          if (id) {
            clear();
            location.hash = routeHash({ page: 'job', id });
            return;
          }
          input.setAttribute('aria-invalid', 'true');
          problem.textContent = text === '' ? 'Enter a job id.' : 'No job id there: an id looks like 0190f4c2-7a1b-7c3d-8e4f-a1b2c3d4e5f6.';
        },
      },
    },
    el('label', { attrs: { for: 'job-lookup-id' } }, 'Job'),
    input,
    el('button', { testId: 'job-lookup-open', attrs: { type: 'submit' } }, 'Open'),
    problem,
  );
}

/** The filters: status and age (each applied as soon as it changes) and type. */
function jobFilters(route: JobsRoute): HTMLElement {
  const status = el(
    'select',
    { testId: 'filter-status', attrs: { id: 'filter-status', name: 'status' } },
    el('option', { attrs: { value: '' } }, 'any'),
    ...JOB_STATUSES.map((value) => el('option', { attrs: { value, selected: value === route.status } }, value)),
  );
  const created = el(
    'select',
    { testId: 'filter-created', attrs: { id: 'filter-created', name: 'created' } },
    el('option', { attrs: { value: '' } }, 'any time'),
    ...(Object.keys(WINDOW_LABELS) as JobWindow[]).map((value) => el('option', { attrs: { value, selected: value === route.created } }, WINDOW_LABELS[value])),
  );
  const type = el('input', { testId: 'filter-type', attrs: { id: 'filter-type', name: 'type', type: 'search', value: route.type ?? '', placeholder: 'video.process', autocomplete: 'off' } });
  const { form, apply } = filterForm(
    {
      testId: 'job-filters',
      label: 'Filter jobs',
      testIdPrefix: 'filter',
      clearHash: routeHash({ page: 'jobs', status: null, type: null, created: null }),
      target: () =>
        routeHash({
          page: 'jobs',
          status: JOB_STATUSES.find((value) => value === status.value) ?? null,
          type: type.value.trim() || null,
          created: (Object.keys(JOB_WINDOWS) as JobWindow[]).find((value) => value === created.value) ?? null,
        }),
    },
    el('label', { attrs: { for: 'filter-status' } }, 'Status'),
    status,
    el('label', { attrs: { for: 'filter-type' } }, 'Type'),
    type,
    el('label', { attrs: { for: 'filter-created' } }, 'Created'),
    created,
  );
  status.addEventListener('change', apply);
  created.addEventListener('change', apply);
  return form;
}

/** Updates the rows in place by job id, so a refresh moves nothing that did not change. */
function renderRows(body: HTMLElement, rows: JobSummaryView[]): void {
  const existing = new Map<string, HTMLTableRowElement>();
  for (const row of body.querySelectorAll<HTMLTableRowElement>('tr[data-job-id]')) existing.set(row.dataset['jobId']!, row);
  rows.forEach((job, index) => {
    const signature = JSON.stringify(job);
    let row = existing.get(job.id);
    existing.delete(job.id);
    if (!row || row.dataset['signature'] !== signature) {
      const fresh = jobRow(job, signature);
      if (row) row.replaceWith(fresh);
      row = fresh;
    }
    if (body.children[index] !== row) body.insertBefore(row, body.children[index] ?? null);
  });
  for (const gone of existing.values()) gone.remove();
}

function jobRow(job: JobSummaryView, signature: string): HTMLTableRowElement {
  const link = jobLink(job.id);
  link.dataset['focusKey'] = `job-${job.id}`;
  return el(
    'tr',
    { testId: 'job-row', data: { jobId: job.id, status: job.status, signature } },
    el('td', {}, link),
    el('td', { testId: 'job-type' }, job.type),
    el('td', {}, statusBadge(job.status, 'job-status')),
    el('td', {}, job.progress === null ? el('span', { className: 'none' }, '—') : progressBar(job.progress, `progress of job ${job.id}`, 'job-progress')),
    el('td', {}, timeOf(job.createdAt)),
    el('td', {}, timeOf(job.updatedAt)),
  );
}
