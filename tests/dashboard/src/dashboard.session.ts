import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { ApiClient, issueApiKey, KafkaProbe, revokeApiKey, TEST_TENANT, waitFor, workspaceRoot, type ApiKeyScope } from '@longhaul/testing';

/** Where each page's screenshot is saved, for a person to look at after a run. */
export const SCREENSHOT_DIR = join(workspaceRoot(), 'tmp', 'dashboard-screenshots');

/**
 * The Chromium to drive: `LONGHAUL_CHROMIUM`, else Debian's `chromium` on PATH (`.ci/run`
 * installs it). playwright-core brings no browser of its own, and none is downloaded.
 */
function chromiumPath(): string {
  const named = process.env['LONGHAUL_CHROMIUM'];
  if (named) return named;
  for (const candidate of ['chromium', 'chromium-browser']) {
    try {
      const path = execFileSync('sh', ['-c', `command -v ${candidate}`], { encoding: 'utf8' }).trim();
      if (path && existsSync(path)) return path;
    } catch {
      // not on PATH: try the next name
    }
  }
  throw new Error('no Chromium found: apt-get install chromium, or set LONGHAUL_CHROMIUM to its path');
}

/** What the dashboard suite's global setup started, as each test file sees it. */
export function dashboardEnv() {
  const need = (name: string): string => {
    const value = process.env[name];
    if (!value) throw new Error(`${name} is not set: run the dashboard tests through their jest config`);
    return value;
  };
  const apiUrl = need('LONGHAUL_TEST_API_URL');
  const apiKey = need('LONGHAUL_TEST_API_KEY');
  return {
    /** The suite's api, sending the suite's API key on every request. */
    api: new ApiClient(apiUrl, apiKey),
    apiUrl,
    /** The API key the global setup issued: what a person would type into the key prompt. */
    apiKey,
    dashboardUrl: `${apiUrl}/dashboard/`,
    jaegerUrl: need('LONGHAUL_TEST_JAEGER_URL').replace(/\/+$/, ''),
    /** The stack's database, where the keys command issues more keys. */
    databaseUrl: need('LONGHAUL_TEST_DATABASE_URL'),
    /** Writes messages to the stack's Kafka as a service would, e.g. one a consumer must dead-letter. */
    kafka: new KafkaProbe(need('LONGHAUL_TEST_KAFKA_BROKERS')),
  };
}

/**
 * One headless Chromium for a test file, and a page on the dashboard. Opened with an API key, the
 * page is signed in through the key prompt once; the key then stays in the tab's sessionStorage
 * for every page the test opens in it.
 */
export class DashboardSession {
  private constructor(
    private readonly browser: Browser,
    readonly page: Page,
    private readonly baseUrl: string,
    /** Errors thrown by the page's scripts and not caught: there should be none. */
    readonly pageErrors: string[],
  ) {}

  /** `apiKey`: typed into the key prompt before the test begins; `null` leaves the tab without a key. */
  static async open(baseUrl: string, apiKey: string | null): Promise<DashboardSession> {
    // As root (CI) Chromium refuses to start with its sandbox; the pages it opens are our own.
    const browser = await chromium.launch({ executablePath: chromiumPath(), headless: true, chromiumSandbox: false });
    const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    const session = new DashboardSession(browser, page, baseUrl, pageErrors);
    try {
      if (apiKey !== null) await session.signIn(apiKey);
    } catch (error) {
      // The caller never gets the session to close: do it here.
      await browser.close();
      throw error;
    }
    return session;
  }

  /** Opens the dashboard, enters `apiKey` in the key prompt and waits until the api took it. */
  async signIn(apiKey: string): Promise<void> {
    await this.page.goto(this.baseUrl);
    await this.byTestId('api-key-input').fill(apiKey);
    await this.byTestId('api-key-submit').click();
    await this.byTestId('api-key-prompt').waitFor({ state: 'detached' });
  }

  /** Opens a page of the dashboard by its fragment (`#/jobs`, `#/jobs/<id>`, …). */
  async goto(fragment: string): Promise<void> {
    await this.page.goto(`${this.baseUrl}${fragment}`);
  }

  byTestId(testId: string): Locator {
    return this.page.getByTestId(testId);
  }

  /**
   * Marks the document, so a test can tell later that what it saw changed by itself, without a
   * reload or a navigation to another document.
   */
  async markDocument(): Promise<void> {
    await this.page.evaluate(() => document.documentElement.setAttribute('data-test-mark', 'kept'));
  }

  async documentKept(): Promise<boolean> {
    return (await this.page.evaluate(() => document.documentElement.getAttribute('data-test-mark'))) === 'kept';
  }

  /**
   * Accepts the next confirmation the page asks for (`confirm()`), and gives its question. Call it
   * before the click that asks, and await it after.
   */
  acceptNextDialog(): Promise<string> {
    return this.page.waitForEvent('dialog').then(async (shown) => {
      const question = shown.message();
      await shown.accept();
      return question;
    });
  }

  /** A job's row in the job list. */
  jobRow(jobId: string): Locator {
    return this.page.locator(`[data-testid="job-row"][data-job-id="${jobId}"]`);
  }

  /** Saves a screenshot of the whole page as `tmp/dashboard-screenshots/<name>.png`. */
  async screenshot(name: string): Promise<string> {
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    const path = join(SCREENSHOT_DIR, `${name}.png`);
    await this.page.screenshot({ path, fullPage: true });
    return path;
  }

  async close(): Promise<void> {
    await this.browser.close();
  }
}

/**
 * Runs `use` with a session of its own, signed in with a key of the suite's tenant that holds only
 * `scopes` (what a person without an operator's key sees); then closes it and revokes the key.
 */
export async function withScopedSession<T>(scopes: ApiKeyScope[], use: (session: DashboardSession) => Promise<T>): Promise<T> {
  const { dashboardUrl, databaseUrl } = dashboardEnv();
  const issued = await issueApiKey({ databaseUrl, tenant: TEST_TENANT, scopes, name: `dashboard tests: ${scopes.join(', ')} only` });
  try {
    const session = await DashboardSession.open(dashboardUrl, issued.key);
    try {
      return await use(session);
    } finally {
      await session.close();
    }
  } finally {
    await revokeApiKey(databaseUrl, issued.id);
  }
}

/** Waits until `read` returns what `accept` takes, polling the page, and returns it; a timeout names the last value read. */
export async function eventually<T>(description: string, read: () => Promise<T>, accept: (value: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const { value } = await waitFor(
    async () => {
      const current = await read();
      if (!accept(current)) throw new Error(`read ${JSON.stringify(current)}`);
      return { value: current };
    },
    { timeoutMs, intervalMs: 100, description },
  );
  return value;
}
