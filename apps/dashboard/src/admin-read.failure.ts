import { describeError, isScopeRefusal, needsAdminText } from './api.client.js';
import { replaceChildren } from './dom.builder.js';
import type { RefreshLoop } from './refresh.loop.js';
import { errorNotice } from './widgets.view.js';

/** The parts of a polling page that need the `admin` scope which a failed read changes. */
export interface AdminPageParts {
  loop: RefreshLoop;
  /** Where a passing failure is shown; emptied when the key turns out to lack the scope. */
  problem: HTMLElement;
  /** Where the page's content goes; the scope notice replaces it. */
  content: HTMLElement;
  /** Controls that only work with the scope (filters, forms, the "updated" note): hidden then. */
  hide: HTMLElement[];
  /** What an operator's key would let the person do, e.g. "see the lanes". */
  instead: string;
  forbiddenTestId: string;
}

/**
 * What a page whose routes need `admin` shows when its read fails. A `403 insufficient_scope`
 * stops the polling and says once that the page needs an operator's key: the key's scopes do not
 * change while the tab holds it, so asking again would only fail again. Anything else is shown
 * above the content, and the next refresh tries again.
 */
export function showAdminReadFailure(error: unknown, page: AdminPageParts): void {
  if (!isScopeRefusal(error)) {
    replaceChildren(page.problem, errorNotice(describeError(error)));
    return;
  }
  page.loop.stop();
  for (const element of page.hide) element.hidden = true;
  replaceChildren(page.problem);
  replaceChildren(page.content, errorNotice(needsAdminText('This page', error, page.instead), page.forbiddenTestId));
}
