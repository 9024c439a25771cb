import type { JobStepView } from '@longhaul/contracts';
import { el } from './dom.builder.js';
import { formatDuration } from './display.format.js';
import type { AttemptBar, JobTimeline } from './step-timeline.model.js';
import { fact, progressBar, statusBadge, timeOf } from './widgets.view.js';

/**
 * Each step of the job: its status and progress, its times, and every attempt as a row of a
 * table (the exact figures) and as bars on the job's time axis (waiting, then running).
 */
export function stepTimelineView(timeline: JobTimeline): HTMLElement {
  return el(
    'section',
    { testId: 'step-timeline', attrs: { 'aria-labelledby': 'steps-heading' } },
    el('h3', { attrs: { id: 'steps-heading' } }, 'Steps'),
    el('p', { className: 'legend' }, el('span', { className: 'swatch swatch-wait' }), ' waiting for a worker ', el('span', { className: 'swatch swatch-run' }), ' running'),
    ...timeline.steps.map(({ step, bars }) => stepSection(step, bars)),
  );
}

function stepSection(step: JobStepView, bars: AttemptBar[]): HTMLElement {
  const attemptText = step.attempt === 0 ? 'not requested yet' : `attempt ${step.attempt} of ${step.maxAttempts}`;
  return el(
    'section',
    { testId: `step-${step.name}`, className: 'step', data: { status: step.status } },
    el('h4', {}, step.name, ' ', statusBadge(step.status, 'step-status'), ' ', el('span', { className: 'muted' }, `${attemptText} · ${step.lane} lane`)),
    el(
      'div',
      { className: 'step-progress', testId: `step-progress-${step.name}` },
      progressBar(step.progress ?? (step.status === 'succeeded' ? 1 : null), `progress of ${step.name}`),
    ),
    el(
      'dl',
      { className: 'facts' },
      fact('Queued', timeOf(step.queuedAt, 'step-queued')),
      fact('Started', timeOf(step.startedAt, 'step-started')),
      fact('Finished', timeOf(step.finishedAt, 'step-finished')),
      fact('Worker', step.worker ?? '—'),
      fact('Failures', `${step.failures} in this series`),
      step.retryAt ? fact('Retry at', timeOf(step.retryAt)) : null,
      step.error ? fact('Error', el('span', { className: 'error-text', testId: 'step-error' }, `${step.error.code}: ${step.error.message}`)) : null,
    ),
    bars.length === 0 ? el('p', { className: 'muted' }, 'No attempts yet.') : attemptsTable(step, bars),
  );
}

function attemptsTable(step: JobStepView, bars: AttemptBar[]): HTMLElement {
  return el(
    'table',
    { className: 'grid attempts', testId: `step-attempts-${step.name}` },
    el('caption', { className: 'visually-hidden' }, `Attempts of ${step.name}`),
    el(
      'thead',
      {},
      el('tr', {}, ...['#', 'Status', 'Lane', 'Worker', 'Dispatched', 'Queued at worker', 'Started', 'Finished', 'Waited', 'Ran', 'Timeline', 'Error'].map((title) => el('th', { attrs: { scope: 'col' } }, title))),
    ),
    el('tbody', {}, ...bars.map(attemptRow)),
  );
}

function attemptRow(bar: AttemptBar): HTMLElement {
  const { attempt } = bar;
  return el(
    'tr',
    { testId: 'attempt-row', data: { attempt: attempt.attempt, status: attempt.status } },
    el('td', {}, attempt.attempt),
    el('td', {}, statusBadge(attempt.status, 'attempt-status')),
    el('td', {}, attempt.lane),
    el('td', { className: 'mono' }, attempt.worker ?? '—'),
    el('td', {}, timeOf(attempt.dispatchedAt, 'attempt-dispatched')),
    el('td', {}, timeOf(attempt.queuedAt, 'attempt-queued')),
    el('td', {}, timeOf(attempt.startedAt, 'attempt-started')),
    el('td', {}, timeOf(attempt.finishedAt, 'attempt-finished')),
    el('td', { className: 'nowrap' }, formatDuration(bar.waitMs)),
    el('td', { className: 'nowrap' }, formatDuration(bar.runMs)),
    el('td', { className: 'axis-cell' }, axis(bar)),
    el('td', { className: 'error-text' }, attempt.error ? `${attempt.error.code}: ${attempt.error.message}` : ''),
  );
}

/** The attempt's bars; the text alternative says what the picture shows. */
function axis(bar: AttemptBar): HTMLElement {
  const label = `waited ${formatDuration(bar.waitMs)}${bar.run ? `, ran ${formatDuration(bar.runMs)}` : ''}`;
  const track = el('div', { className: 'axis', attrs: { role: 'img', 'aria-label': label, title: label } });
  for (const [segment, kind] of [
    [bar.wait, 'wait'],
    [bar.run, 'run'],
  ] as const) {
    if (!segment) continue;
    const piece = el('span', { className: `axis-${kind}` });
    // Set through the CSS object model: the page's policy allows no inline style attributes.
    piece.style.left = `${segment.startPercent}%`;
    piece.style.width = `max(2px, ${segment.widthPercent}%)`;
    track.append(piece);
  }
  return track;
}
