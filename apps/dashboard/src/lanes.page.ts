import type { LaneQueueView, QueuesView } from '@longhaul/contracts';
import { showAdminReadFailure } from './admin-read.failure.js';
import { queues } from './api.client.js';
import { el, replaceChildren } from './dom.builder.js';
import { formatCount, formatDuration, formatRate } from './display.format.js';
import type { Page, PageContext } from './page.context.js';
import { startRefreshLoop } from './refresh.loop.js';
import { routeHash } from './route.policy.js';
import { emptyState, statusBadge, timeOf, updatedNote } from './widgets.view.js';

/** The api samples lanes every second or so; reading them every few seconds is live enough. */
const REFRESH_MS = 3000;

/**
 * The lanes (`GET /v1/queues`): depth, running, lag, oldest wait, throughput, limits, admission;
 * and the dead-letter topics, each linked to its dead-lettered messages. The route needs the
 * `admin` scope: a key without it is told so once, rather than shown an error on every refresh.
 */
export function mountLanes(view: HTMLElement, _route: unknown, _context: PageContext): Page {
  const updated = updatedNote('lanes-updated');
  const problem = el('div', { attrs: { 'aria-live': 'polite' } });
  const content = el('div', {}, 'Loading the lanes…');
  let shown = '';
  const refresh = async () => {
    try {
      const figures = await queues();
      replaceChildren(problem);
      updated.mark();
      const text = JSON.stringify(figures);
      if (text === shown) return;
      shown = text;
      replaceChildren(content, lanesTable(figures), topicsTable(figures), el('p', { className: 'muted' }, 'Sampled ', timeOf(figures.sampledAt, 'lanes-sampled'), '.'));
    } catch (error) {
      showAdminReadFailure(error, { loop, problem, content, hide: [updated.element], instead: 'see the lanes', forbiddenTestId: 'lanes-forbidden' });
    }
  };
  replaceChildren(view, el('h2', {}, 'Lanes'), updated.element, problem, content);
  void refresh();
  const loop = startRefreshLoop(refresh, REFRESH_MS);
  return { dispose: () => loop.stop() };
}

function lanesTable(figures: QueuesView): HTMLElement {
  const headers = ['Lane', 'Depth', 'Running', 'Lag', 'Oldest wait', 'Throughput', 'Max depth', 'Max lag', 'Admitting'];
  return el(
    'table',
    { testId: 'lanes-table', className: 'grid numbers' },
    el('caption', {}, 'Steps per lane: queued (depth), running, unconsumed messages (lag), and whether new jobs are admitted'),
    el('thead', {}, el('tr', {}, ...headers.map((title) => el('th', { attrs: { scope: 'col' } }, title)))),
    el('tbody', {}, ...figures.lanes.map(laneRow)),
  );
}

function laneRow(lane: LaneQueueView): HTMLElement {
  return el(
    'tr',
    { testId: `lane-row-${lane.lane}`, data: { lane: lane.lane, admitting: String(lane.admitting) } },
    el('th', { attrs: { scope: 'row' } }, lane.lane),
    el('td', { testId: 'lane-depth' }, formatCount(lane.depth)),
    el('td', { testId: 'lane-running' }, formatCount(lane.running)),
    el('td', { testId: 'lane-lag' }, formatCount(lane.lag)),
    el('td', { testId: 'lane-oldest-wait' }, formatDuration(lane.oldestWaitingMs)),
    el('td', { testId: 'lane-throughput' }, formatRate(lane.throughputPerSecond)),
    el('td', {}, formatCount(lane.limits.maxDepth)),
    el('td', {}, formatCount(lane.limits.maxLag)),
    el('td', { testId: 'lane-admitting' }, lane.admitting ? statusBadge('admitting') : statusBadge('refusing', undefined, 'refusing (429)')),
  );
}

function topicsTable(figures: QueuesView): HTMLElement {
  const heading = el('h3', {}, 'Dead-letter topics');
  if (figures.deadLetterTopics === null) return el('section', { testId: 'dlq-topics' }, heading, emptyState('Kafka did not answer: counts unknown.', 'dlq-topics-unknown'));
  return el(
    'section',
    { testId: 'dlq-topics' },
    heading,
    el('p', { className: 'muted' }, 'Messages a consumer could not decode or handle, kept in ', el('code', {}, '<topic>.dlq'), '.'),
    el(
      'table',
      { className: 'grid numbers' },
      el('thead', {}, el('tr', {}, el('th', { attrs: { scope: 'col' } }, 'Topic'), el('th', { attrs: { scope: 'col' } }, 'Messages'))),
      el(
        'tbody',
        {},
        ...figures.deadLetterTopics.map((topic) =>
          el(
            'tr',
            { testId: 'dlq-topic', data: { topic: topic.topic } },
            el('th', { attrs: { scope: 'row' }, className: 'mono' }, el('a', { testId: 'dlq-topic-link', attrs: { href: routeHash({ page: 'dlq-messages', topic: topic.topic, errorCode: null, pending: false }) } }, topic.topic)),
            el('td', {}, formatCount(topic.messages)),
          ),
        ),
      ),
    ),
  );
}
