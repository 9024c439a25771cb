import type { DashboardConfigView } from '@longhaul/contracts';

/** What every page is given when it is shown. */
export interface PageContext {
  /** The api's dashboard settings; null when `/dashboard/config.json` could not be read. */
  config: DashboardConfigView | null;
}

/** A page on screen: `dispose` stops its timers and streams when another page replaces it. */
export interface Page {
  dispose(): void;
}

/** Shows a page in `view` and returns it. */
export type PageMount<R> = (view: HTMLElement, route: R, context: PageContext) => Page;
