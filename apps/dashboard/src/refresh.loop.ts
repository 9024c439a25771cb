/** A running {@link startRefreshLoop}. */
export interface RefreshLoop {
  /** Runs the refresh now (or right after the one in flight), then keeps the interval. */
  now(): void;
  stop(): void;
}

/**
 * Runs `refresh` every `intervalMs` while the page is visible: the next run is timed from the end
 * of the last, so a slow api never has two refreshes of one view in flight. A hidden tab asks
 * nothing, and catches up as soon as it is shown again. The first run is the caller's.
 */
export function startRefreshLoop(refresh: () => Promise<void>, intervalMs: number): RefreshLoop {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running = false;
  let again = false;
  let stopped = false;

  const schedule = () => {
    clearTimeout(timer);
    if (!stopped) timer = setTimeout(run, intervalMs);
  };
  const run = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    if (document.visibilityState === 'hidden') {
      schedule();
      return;
    }
    running = true;
    refresh()
      .catch(() => undefined)
      .finally(() => {
        running = false;
        if (again) {
          again = false;
          run();
        } else {
          schedule();
        }
      });
  };
  const onVisible = () => {
    if (document.visibilityState === 'visible') run();
  };
  document.addEventListener('visibilitychange', onVisible);
  schedule();
  return {
    now: run,
    stop: () => {
      stopped = true;
      clearTimeout(timer);
      document.removeEventListener('visibilitychange', onVisible);
    },
  };
}
