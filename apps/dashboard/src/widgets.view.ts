import { append, el, type Child } from './dom.builder.js';
import { formatPercent, formatTime, shortId } from './display.format.js';
import { routeHash } from './route.policy.js';

// Small pieces every page uses. A status is always written out, never told by colour alone.

/** A job, step, attempt, delivery or lane status as a badge, its colour picked by the status. */
export function statusBadge(status: string, testId?: string, label = status): HTMLElement {
  return el('span', { className: `badge badge-${toneOf(status)}`, testId, data: { status } }, label);
}

function toneOf(status: string): string {
  switch (status) {
    case 'completed':
    case 'succeeded':
    case 'delivered':
    case 'admitting':
    case 'active':
      return 'good';
    case 'failed':
    case 'dead':
    case 'lost':
    case 'refusing':
      return 'bad';
    case 'running':
    case 'retrying':
      return 'busy';
    case 'cancelled':
    case 'demoted':
    case 'replayed':
    case 'revoked':
    case 'expired':
      return 'muted';
    default:
      return 'waiting';
  }
}

/** A progress bar with its percentage beside it; an indeterminate bar when nothing is known. */
export function progressBar(fraction: number | null, label: string, testId?: string): HTMLElement {
  const bar = el('progress', { testId, attrs: { max: 1, 'aria-label': label } });
  if (fraction !== null) bar.value = Math.min(1, Math.max(0, fraction));
  return el('span', { className: 'progress' }, bar, el('span', { className: 'progress-text', testId: testId ? `${testId}-text` : undefined }, formatPercent(fraction)));
}

/** Sets an existing {@link progressBar} to a new fraction in place (live updates). */
export function updateProgressBar(container: Element | null, fraction: number): void {
  const bar = container?.querySelector('progress');
  if (bar) bar.value = Math.min(1, Math.max(0, fraction));
  const text = container?.querySelector('.progress-text');
  if (text) text.textContent = formatPercent(fraction);
}

/** A moment, readable and machine-readable (`<time datetime>`); `—` for none. */
export function timeOf(iso: string | null | undefined, testId?: string): HTMLElement {
  if (!iso) return el('span', { testId, className: 'none' }, '—');
  return el('time', { testId, attrs: { datetime: iso, title: iso } }, formatTime(iso));
}

/** A link to a job's page, showing the start of its id. */
export function jobLink(jobId: string, testId = 'job-link'): HTMLElement {
  return el('a', { testId, attrs: { href: routeHash({ page: 'job', id: jobId }), title: jobId }, className: 'mono' }, shortId(jobId));
}

/** A "nothing here" message. */
export function emptyState(text: string, testId: string): HTMLElement {
  return el('p', { className: 'empty', testId }, text);
}

/** An error line, announced to screen readers when it appears. */
export function errorNotice(text: string, testId = 'error'): HTMLElement {
  return el('p', { className: 'error', testId, attrs: { role: 'alert' } }, text);
}

/** "Updated 10:00:05": when a polled view last heard from the api. */
export function updatedNote(testId: string): { element: HTMLElement; mark(): void } {
  const element = el('p', { className: 'updated', testId, attrs: { 'aria-live': 'off' } }, 'Loading…');
  return { element, mark: () => (element.textContent = `Updated ${formatTime(new Date().toISOString())}`) };
}

/** What {@link filterForm} needs besides its controls. */
export interface FilterFormOptions {
  testId: string;
  /** The form's accessible name, `Filter jobs`. */
  label: string;
  /** Prefix of the Apply and Clear buttons' test ids: `<prefix>-apply`, `<prefix>-clear`. */
  testIdPrefix: string;
  /** The unfiltered list's fragment, where Clear goes. */
  clearHash: string;
  /** The fragment the controls name now. */
  target(): string;
}

/**
 * A list's filters: its controls, Apply (Enter too) and Clear. Filters live in the URL, so
 * applying navigates to the fragment they name, which shows the list anew, and a reload or a
 * shared link keeps them. `apply` is returned for controls that apply at once (a select's or a
 * checkbox's `change`).
 */
export function filterForm(options: FilterFormOptions, ...controls: Child[]): { form: HTMLFormElement; apply: () => void } {
  const apply = () => {
    const hash = options.target();
    if (hash !== location.hash) location.hash = hash;
  };
  const form = el(
    'form',
    {
      testId: options.testId,
      className: 'filters',
      attrs: { role: 'search', 'aria-label': options.label },
      on: {
        submit: (event) => {
          event.preventDefault();
          apply();
        },
      },
    },
    ...controls,
    el('button', { testId: `${options.testIdPrefix}-apply`, attrs: { type: 'submit' } }, 'Apply'),
    el('a', { testId: `${options.testIdPrefix}-clear`, attrs: { href: options.clearHash } }, 'Clear'),
  );
  return { form, apply };
}

/** A term and its description, for a `<dl>`. */
export function fact(term: string, ...values: Child[]): DocumentFragment {
  const fragment = document.createDocumentFragment();
  const description = el('dd', {});
  append(description, ...values);
  fragment.append(el('dt', {}, term), description);
  return fragment;
}
