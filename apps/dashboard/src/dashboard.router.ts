import { mountApiKeys } from './api-keys.page.js';
import { mountDeadLetters } from './dead-letters.page.js';
import { mountDlqMessages } from './dlq-messages.page.js';
import { el, replaceChildren } from './dom.builder.js';
import { mountJobDetail } from './job-detail.page.js';
import { mountJobsList } from './jobs-list.page.js';
import { mountLanes } from './lanes.page.js';
import type { Page, PageContext } from './page.context.js';
import { parseRoute, sectionOf, type Route } from './route.policy.js';
import { shortId } from './display.format.js';

function titleOf(route: Route): string {
  switch (route.page) {
    case 'jobs':
      return 'Jobs';
    case 'job':
      return `Job ${shortId(route.id)}`;
    case 'lanes':
      return 'Lanes';
    case 'dead-letters':
      return 'Dead letters';
    case 'dlq-messages':
      return 'Dead-lettered messages';
    case 'api-keys':
      return 'API keys';
    case 'not-found':
      return 'Not found';
  }
}

function mount(route: Route, view: HTMLElement, context: PageContext): Page {
  switch (route.page) {
    case 'jobs':
      return mountJobsList(view, route, context);
    case 'job':
      return mountJobDetail(view, route, context);
    case 'lanes':
      return mountLanes(view, route, context);
    case 'dead-letters':
      return mountDeadLetters(view, route, context);
    case 'dlq-messages':
      return mountDlqMessages(view, route, context);
    case 'api-keys':
      return mountApiKeys(view, route, context);
    case 'not-found':
      replaceChildren(view, el('h2', {}, 'Not found'), el('p', { testId: 'not-found' }, `There is no page ${route.path}. `, el('a', { attrs: { href: '#/jobs' } }, 'Go to the jobs.')));
      return { dispose: () => undefined };
  }
}

/** A running router: it can step aside for the key prompt and come back. */
export interface Router {
  /** Disposes the page on screen and shows none until {@link Router.resume}, whatever the URL does meanwhile. */
  suspend(): void;
  /** Shows the page the URL names now. */
  resume(): void;
}

/**
 * Shows the page the URL's fragment names in `view`, and the next one whenever it changes: the
 * page before is disposed first (its polling and event stream stop), the navigation marks the
 * current section, the title names the page, and focus moves to the new content for keyboard
 * and screen-reader users.
 */
export function startRouter(view: HTMLElement, nav: HTMLElement, context: PageContext): Router {
  let current: Page | null = null;
  let first = true;
  let suspended = false;
  const show = () => {
    if (suspended) return;
    current?.dispose();
    const route = parseRoute(location.hash);
    const section = sectionOf(route);
    for (const link of nav.querySelectorAll<HTMLAnchorElement>('a[data-section]')) {
      if (link.dataset['section'] === section) link.setAttribute('aria-current', 'page');
      else link.removeAttribute('aria-current');
    }
    document.title = `${titleOf(route)} · Longhaul`;
    current = mount(route, view, context);
    if (!first) view.focus({ preventScroll: false });
    first = false;
  };
  window.addEventListener('hashchange', show);
  show();
  return {
    suspend: () => {
      suspended = true;
      current?.dispose();
      current = null;
    },
    resume: () => {
      suspended = false;
      show();
    },
  };
}
