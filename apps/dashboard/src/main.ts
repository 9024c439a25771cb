import { dashboardConfig } from './api.client.js';
import { forgetApiKey, onKeyRefused, storedApiKey } from './api-key.session.js';
import { mountApiKeyPrompt, type KeyPromptReason } from './api-key.prompt.js';
import { startRouter, type Router } from './dashboard.router.js';
import { hashForPath } from './route.policy.js';

/** Where the api serves the dashboard; index.html's `<base href>` says the same. */
const BASE_PATH = '/dashboard/';

async function start(): Promise<void> {
  const view = document.getElementById('view')!;
  const nav = document.getElementById('sections')!;
  const signOut = document.getElementById('sign-out') as HTMLButtonElement;
  // The api answers any extension-less path below the dashboard with index.html, so a link
  // written as a path (/dashboard/jobs/<id>) opens the page it names.
  const deepLink = location.hash === '' ? hashForPath(location.pathname, BASE_PATH) : null;
  if (deepLink) history.replaceState(null, '', `${BASE_PATH}${deepLink}`);
  // Without its settings the dashboard still works; traces are then shown without a link. They
  // are public, like the page itself: no key is needed to read them.
  const config = await dashboardConfig().catch(() => null);

  // The pages need the API key; without one, or once the api refuses it, the key prompt stands
  // in for them until a key the api takes is entered.
  let router: Router | null = null;
  let prompting = false;
  const showDashboard = () => {
    prompting = false;
    signOut.hidden = false;
    if (router) router.resume();
    else router = startRouter(view, nav, { config });
  };
  const prompt = (reason: KeyPromptReason) => {
    if (prompting && reason === 'refused') return;
    prompting = true;
    signOut.hidden = true;
    router?.suspend();
    document.title = 'API key · Longhaul';
    mountApiKeyPrompt(view, reason, showDashboard);
  };
  onKeyRefused(() => prompt('refused'));
  signOut.addEventListener('click', () => {
    forgetApiKey();
    prompt('signed-out');
  });
  if (storedApiKey()) showDashboard();
  else prompt('missing');
}

void start();
