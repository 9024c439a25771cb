import type { DeliveryView, JobDeliveriesView } from '@longhaul/contracts';
import { el } from './dom.builder.js';
import { emptyState, statusBadge, timeOf } from './widgets.view.js';

/** Whether every delivery has reached its end (delivered or given up). */
export function deliveriesSettled(view: JobDeliveriesView): boolean {
  return view.items.every((delivery) => delivery.status === 'delivered' || delivery.status === 'failed');
}

/** The job's webhook and email deliveries, each with its latest attempt and what comes next. */
export function deliveriesView(view: JobDeliveriesView): HTMLElement {
  return el(
    'section',
    { testId: 'deliveries', attrs: { 'aria-labelledby': 'deliveries-heading' } },
    el('h3', { attrs: { id: 'deliveries-heading' } }, 'Notifications'),
    view.items.length === 0
      ? emptyState('No webhook or email was sent about this job.', 'deliveries-empty')
      : el(
          'table',
          { className: 'grid' },
          el('caption', { className: 'visually-hidden' }, 'Webhook and email deliveries'),
          el('thead', {}, el('tr', {}, ...['Channel', 'Target', 'Event', 'Status', 'Attempts', 'Last attempt', 'Next attempt'].map((title) => el('th', { attrs: { scope: 'col' } }, title)))),
          el('tbody', {}, ...view.items.map(deliveryRow)),
        ),
  );
}

function deliveryRow(delivery: DeliveryView): HTMLElement {
  const last = delivery.attempts[delivery.attempts.length - 1];
  const lastText = last
    ? [last.outcome, last.statusCode === null ? null : `status ${last.statusCode}`, last.error ? `${last.error.code}: ${last.error.message}` : null, `${last.durationMs} ms`]
        .filter((part) => part !== null)
        .join(' · ')
    : 'not tried yet';
  return el(
    'tr',
    { testId: 'delivery-row', data: { channel: delivery.channel, status: delivery.status } },
    el('td', {}, delivery.channel),
    el('td', { className: 'mono break' }, delivery.target),
    el('td', {}, delivery.event),
    el('td', {}, statusBadge(delivery.status, 'delivery-status')),
    el('td', {}, delivery.attempts.length),
    el('td', {}, last ? timeOf(last.at) : null, last ? ' ' : null, el('span', { className: 'muted' }, lastText)),
    el('td', {}, timeOf(delivery.nextAttemptAt)),
  );
}
