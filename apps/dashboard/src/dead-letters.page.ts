import type { DeadLetterView } from '@longhaul/contracts';
import { ApiError, deadLetters, describeError, isScopeRefusal, needsAdminText, replayDeadLetter } from './api.client.js';
import { groupDeadLetters, type DeadLetterSection } from './dead-letter-groups.model.js';
import { el, keepingFocus, replaceChildren } from './dom.builder.js';
import { formatTime } from './display.format.js';
import type { Page, PageContext } from './page.context.js';
import { startRefreshLoop } from './refresh.loop.js';
import { emptyState, errorNotice, jobLink, statusBadge, timeOf, updatedNote } from './widgets.view.js';

const REFRESH_MS = 5000;

/** What the last replay of a dead letter answered, kept across refreshes of the list. */
interface ReplayOutcome {
  status: number | null;
  text: string;
}

/**
 * Dead letters (`GET /v1/dead-letters`) grouped by fingerprint — the step, error code and
 * normalised message they share — each with its job and a Replay button whose answer is shown:
 * `202` when that click started a new attempt series, `200` when it had been replayed before.
 * Listing needs the `read` scope, replaying `admin`: a Replay refused for want of it says so.
 */
export function mountDeadLetters(view: HTMLElement, _route: unknown, _context: PageContext): Page {
  const outcomes = new Map<string, ReplayOutcome>();
  const updated = updatedNote('dead-letters-updated');
  const problem = el('div', { attrs: { 'aria-live': 'polite' } });
  const content = el('div', {}, 'Loading the dead letters…');
  let sections: DeadLetterSection[] | null = null;
  let shown = '';

  const render = () => {
    if (!sections) return;
    const text = JSON.stringify([sections, [...outcomes]]);
    if (text === shown) return;
    shown = text;
    keepingFocus(content, () =>
      replaceChildren(
        content,
        sections!.length === 0 ? emptyState('No dead letters: every step that ran out of retries has been dealt with.', 'dead-letters-empty') : null,
        ...sections!.map((section) => groupSection(section, outcomes, replay)),
      ),
    );
  };
  const refresh = async () => {
    try {
      sections = groupDeadLetters(await deadLetters());
      replaceChildren(problem);
      updated.mark();
      render();
    } catch (error) {
      replaceChildren(problem, errorNotice(describeError(error)));
    }
  };
  const replay = async (deadLetter: DeadLetterView) => {
    outcomes.set(deadLetter.id, { status: null, text: 'Replaying…' });
    render();
    try {
      const answer = await replayDeadLetter(deadLetter.id);
      outcomes.set(deadLetter.id, {
        status: answer.status,
        text:
          answer.status === 202
            ? `202 Accepted: replay started as attempt ${answer.body.replayAttempt ?? '?'}.`
            : `200 OK: already replayed${answer.body.replayedAt ? ` at ${formatTime(answer.body.replayedAt)}` : ''}; nothing ran again.`,
      });
    } catch (error) {
      outcomes.set(deadLetter.id, {
        status: error instanceof ApiError ? error.status : null,
        // The list needs `read` only, Replay `admin`: the list stays, the row says what Replay needs.
        text: isScopeRefusal(error) ? needsAdminText('Replaying', error, 'replay it') : describeError(error),
      });
    }
    render();
    loop.now();
  };

  replaceChildren(view, el('h2', {}, 'Dead letters'), updated.element, problem, content);
  void refresh();
  const loop = startRefreshLoop(refresh, REFRESH_MS);
  return { dispose: () => loop.stop() };
}

function groupSection(section: DeadLetterSection, outcomes: Map<string, ReplayOutcome>, replay: (deadLetter: DeadLetterView) => void): HTMLElement {
  const { group } = section;
  const headingId = `group-${group.fingerprint}`;
  return el(
    'section',
    { testId: 'dead-letter-group', className: 'group', data: { fingerprint: group.fingerprint }, attrs: { 'aria-labelledby': headingId } },
    el('h3', { attrs: { id: headingId } }, `${group.step} · ${group.errorCode} · ${group.count} dead letter${group.count === 1 ? '' : 's'}`),
    el('p', {}, el('span', { className: 'error-text', testId: 'group-message' }, group.sampleMessage)),
    el(
      'p',
      { className: 'muted' },
      'Fingerprint ',
      el('code', {}, group.fingerprint),
      ' · first ',
      timeOf(group.firstAt),
      ' · last ',
      timeOf(group.lastAt),
      section.unlisted > 0 ? ` · ${section.unlisted} older not listed` : '',
    ),
    el(
      'table',
      { className: 'grid' },
      el('caption', { className: 'visually-hidden' }, `Dead letters with fingerprint ${group.fingerprint}`),
      el('thead', {}, el('tr', {}, ...['Dead-lettered', 'Job', 'Step', 'Lane', 'Attempts', 'Error', 'Replayed', 'Replay'].map((title) => el('th', { attrs: { scope: 'col' } }, title)))),
      el('tbody', {}, ...section.items.map((item) => deadLetterRow(item, outcomes.get(item.id), replay))),
    ),
  );
}

function deadLetterRow(item: DeadLetterView, outcome: ReplayOutcome | undefined, replay: (deadLetter: DeadLetterView) => void): HTMLElement {
  const button = el(
    'button',
    {
      testId: 'replay-button',
      attrs: { type: 'button', 'aria-label': `Replay the ${item.step} step of job ${item.jobId}`, disabled: outcome?.text === 'Replaying…' },
      data: { focusKey: `replay-${item.id}` },
      on: { click: () => replay(item) },
    },
    'Replay',
  );
  return el(
    'tr',
    { testId: 'dead-letter-row', data: { deadLetterId: item.id, jobId: item.jobId } },
    el('td', {}, timeOf(item.createdAt)),
    el('td', {}, jobLink(item.jobId, 'dead-letter-job-link')),
    el('td', {}, item.step),
    el('td', {}, item.lane),
    el('td', {}, item.attempts.length),
    el('td', { className: 'error-text' }, `${item.error.code}: ${item.error.message}`),
    item.replayedAt
      ? el('td', { testId: 'dead-letter-replayed' }, statusBadge('replayed'), ' ', timeOf(item.replayedAt), ` as attempt ${item.replayAttempt ?? '?'}`)
      : el('td', { testId: 'dead-letter-replayed' }, '—'),
    el(
      'td',
      {},
      button,
      el('span', { testId: 'replay-outcome', className: 'outcome', data: { status: outcome?.status ?? null }, attrs: { role: 'status' } }, outcome?.text ?? ''),
    ),
  );
}
