import type { DashboardConfigView, DlqMessageView } from '@longhaul/contracts';
import { el } from './dom.builder.js';
import { displayValue, headerEntries } from './dlq-messages.model.js';
import { traceLink } from './job-summary.view.js';
import { fact, timeOf } from './widgets.view.js';

/**
 * One dead-lettered message as it sits in its dead-letter topic, folded under its row: where it
 * is and where it came from, its ids and trace, every header and the value — what an operator
 * judges before replaying or deleting it. A refresh rebuilds the row, so the page says whether
 * it is `open` and hears of every toggle.
 */
export function dlqMessageDetails(message: DlqMessageView, config: DashboardConfigView | null, open: boolean, onToggle: (open: boolean) => void): HTMLElement {
  const headers = headerEntries(message.headers);
  const details = el(
    'details',
    { testId: 'dlq-message-details', attrs: { open }, on: { toggle: () => onToggle(details.open) } },
    el('summary', { data: { focusKey: `details-${message.id}` } }, `Headers and value of message ${message.id}`),
    el(
      'dl',
      { className: 'facts' },
      fact('Dead-letter copy', el('span', { className: 'mono' }, `${message.dlqTopic} partition ${message.dlqPartition} offset ${message.dlqOffset}`)),
      fact('Came from', el('span', { className: 'mono', testId: 'dlq-message-source' }, message.source ?? message.sourceTopic)),
      fact('Event id', el('span', { className: 'mono' }, message.eventId ?? '—')),
      fact('Recorded', timeOf(message.recordedAt)),
      fact('Trace', traceLink(config, message.traceId)),
    ),
    el(
      'table',
      { testId: 'dlq-message-headers', className: 'grid message-headers' },
      el('caption', {}, `Headers of message ${message.id}: its own, then those the consumer added when it dead-lettered it (dlq.*)`),
      el('thead', {}, el('tr', {}, el('th', { attrs: { scope: 'col' } }, 'Header'), el('th', { attrs: { scope: 'col' } }, 'Value'))),
      el(
        'tbody',
        {},
        ...headers.map(([name, value]) =>
          el('tr', { testId: 'dlq-message-header', data: { header: name } }, el('th', { attrs: { scope: 'row' }, className: 'mono' }, name), el('td', { className: 'mono break' }, value)),
        ),
      ),
    ),
    // Focusable, so a keyboard user can scroll a long value.
    el('pre', { testId: 'dlq-message-value', className: 'message-value', attrs: { tabindex: 0, 'aria-label': `Value of message ${message.id}` } }, displayValue(message.value)),
  );
  return details;
}
