import { dashboardConfig } from './api.client.js';
import { startRouter } from './dashboard.router.js';
import { hashForPath } from './route.policy.js';

/** Where the api serves the dashboard; index.html's `<base href>` says the same. */
const BASE_PATH = '/dashboard/';

async function start(): Promise<void> {
  const view = document.getElementById('view')!;
  const nav = document.getElementById('sections')!;
  // The api answers any extension-less path below the dashboard with index.html, so a link
  // written as a path (/dashboard/jobs/<id>) opens the page it names.
  const deepLink = location.hash === '' ? hashForPath(location.pathname, BASE_PATH) : null;
  if (deepLink) history.replaceState(null, '', `${BASE_PATH}${deepLink}`);
  // Without its settings the dashboard still works; traces are then shown without a link.
  const config = await dashboardConfig().catch(() => null);
  startRouter(view, nav, { config });
}

void start();
