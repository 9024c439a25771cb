import type { JobDeliveriesView, JobView } from '@longhaul/contracts';
import { ApiError, cancelJob, describeError, getJob, jobDeliveries, jobEventsUrl, replayDeadLetter } from './api.client.js';
import { deliveriesSettled, deliveriesView } from './deliveries.view.js';
import { el, replaceChildren } from './dom.builder.js';
import { formatTime } from './display.format.js';
import { followJobFeed, type FeedState } from './job-feed.follower.js';
import { jobOutputsView, outputsSignature, type OutputsView } from './job-outputs.view.js';
import { jobSummaryView } from './job-summary.view.js';
import type { Page, PageContext } from './page.context.js';
import { startRefreshLoop } from './refresh.loop.js';
import type { Route } from './route.policy.js';
import { jobTimeline } from './step-timeline.model.js';
import { stepTimelineView } from './step-timeline.view.js';
import { errorNotice, updateProgressBar } from './widgets.view.js';

/** How often the job is read again besides its events: keeps running times moving, and notices a replay after the stream ended. */
const JOB_REFRESH_MS = 5000;
/** How often deliveries are read while one may still change. */
const DELIVERIES_REFRESH_MS = 5000;
/** How long after a job's end its deliveries are still looked for when it has none. */
const DELIVERIES_GRACE_MS = 30_000;
/** Status events arriving together (a replayed feed) cause one read, this long after the first. */
const REFETCH_DEBOUNCE_MS = 150;

const isFinished = (job: JobView): boolean => job.status === 'completed' || job.status === 'failed' || job.status === 'cancelled';

const FEED_STATE_TEXT: Record<FeedState, string> = {
  connecting: 'Connecting to the live event stream…',
  live: 'Live: following the job\'s events.',
  ended: 'The job\'s event stream has ended.',
};

/**
 * One job: status, stage, actions (cancel, replay a dead letter), the trace link, a timeline of
 * its steps and attempts, its outputs with an HLS player, and its notifications. Progress comes
 * live from the job's event stream; each status event reads the job view again.
 */
export function mountJobDetail(view: HTMLElement, route: Extract<Route, { page: 'job' }>, context: PageContext): Page {
  let job: JobView | null = null;
  let deliveries: JobDeliveriesView | null = null;
  let feed: { close(): void } | null = null;
  let feedState: FeedState = 'connecting';
  let outputs: OutputsView | null = null;
  let outputsKey = '';
  let refetchTimer: ReturnType<typeof setTimeout> | undefined;
  let disposed = false;
  /** The api said there is no such job: nothing more to ask. */
  let missing = false;

  const problem = el('div', { attrs: { 'aria-live': 'polite' } });
  const live = el('p', { testId: 'live-state', className: 'muted' }, FEED_STATE_TEXT.connecting);
  const summary = el('div', { testId: 'job-summary' }, 'Loading the job…');
  const cancelButton = el('button', { testId: 'job-cancel', attrs: { type: 'button', disabled: true } }, 'Cancel job');
  const replayButton = el('button', { testId: 'job-replay', attrs: { type: 'button', hidden: true } }, 'Replay the dead letter');
  const actionOutcome = el('p', { testId: 'action-outcome', attrs: { role: 'status' } });
  const steps = el('div');
  const outputsSlot = el('div');
  const deliveriesSlot = el('div');

  const render = () => {
    if (!job) return;
    replaceChildren(summary, jobSummaryView(job, context.config));
    cancelButton.disabled = isFinished(job);
    replayButton.hidden = job.stage.state !== 'dead_lettered' || !job.stage.deadLetterId;
    replaceChildren(steps, stepTimelineView(jobTimeline(job, Date.now())));
    const key = outputsSignature(job);
    if (key !== outputsKey) {
      outputs?.dispose();
      outputs = jobOutputsView(job);
      outputsKey = key;
      replaceChildren(outputsSlot, outputs.element);
    }
  };
  const load = async () => {
    try {
      job = await getJob(route.id);
      if (disposed) return;
      replaceChildren(problem);
      render();
      // A replay reopens a failed job whose stream had ended: follow it again.
      if (!isFinished(job) && feedState === 'ended') openFeed();
    } catch (error) {
      if (disposed) return;
      missing = error instanceof ApiError && error.status === 404;
      replaceChildren(problem, errorNotice(missing ? `There is no job ${route.id}.` : describeError(error)));
    }
  };
  const loadDeliveries = async () => {
    try {
      deliveries = await jobDeliveries(route.id);
      if (!disposed) replaceChildren(deliveriesSlot, deliveriesView(deliveries));
    } catch {
      // The job's own read reports the api's problems; this section keeps its last state.
    }
  };
  const requestRefetch = () => {
    clearTimeout(refetchTimer);
    refetchTimer = setTimeout(() => {
      void load();
      void loadDeliveries();
    }, REFETCH_DEBOUNCE_MS);
  };
  const openFeed = () => {
    feed?.close();
    feed = followJobFeed(jobEventsUrl(route.id), {
      onStatus: requestRefetch,
      onProgress: (event) => {
        const step = job?.steps.find((candidate) => candidate.name === event.step && candidate.attempt === event.attempt);
        if (!step) return;
        step.progress = event.progress;
        updateProgressBar(steps.querySelector(`[data-testid="step-progress-${event.step}"]`), event.progress);
        const stage = summary.querySelector('[data-testid="stage-progress"]');
        if (stage && job?.stage.step === event.step) updateProgressBar(stage, event.progress);
      },
      onState: (state) => {
        feedState = state;
        live.textContent = FEED_STATE_TEXT[state];
        live.dataset['state'] = state;
      },
    });
  };

  cancelButton.addEventListener('click', () =>
    act(cancelButton, actionOutcome, async () => {
      const answer = await cancelJob(route.id);
      requestRefetch();
      return answer.status === 202 ? 'Cancelled (202 Accepted).' : 'It was already cancelled (200 OK).';
    }),
  );
  replayButton.addEventListener('click', () =>
    act(replayButton, actionOutcome, async () => {
      const deadLetterId = job?.stage.deadLetterId;
      if (!deadLetterId) return 'Nothing to replay.';
      const answer = await replayDeadLetter(deadLetterId);
      requestRefetch();
      return answer.status === 202
        ? `Replay started as attempt ${answer.body.replayAttempt ?? '?'} (202 Accepted).`
        : `Already replayed${answer.body.replayedAt ? ` at ${formatTime(answer.body.replayedAt)}` : ''} (200 OK).`;
    }),
  );

  replaceChildren(
    view,
    el('h2', {}, 'Job ', el('span', { className: 'mono', testId: 'job-id' }, route.id)),
    el('p', {}, el('a', { attrs: { href: '#/jobs' } }, '← All jobs')),
    problem,
    live,
    summary,
    el('div', { className: 'actions' }, cancelButton, replayButton, actionOutcome),
    steps,
    outputsSlot,
    deliveriesSlot,
  );
  void load();
  void loadDeliveries();
  openFeed();
  const jobLoop = startRefreshLoop(async () => {
    // While the stream is open and the job over, the stream says all there is to say.
    if (missing || (job && isFinished(job) && feedState !== 'ended')) return;
    await load();
  }, JOB_REFRESH_MS);
  const deliveriesLoop = startRefreshLoop(async () => {
    if (missing || (job && deliveries && !deliveriesMayChange(job, deliveries))) return;
    await loadDeliveries();
  }, DELIVERIES_REFRESH_MS);

  return {
    dispose: () => {
      disposed = true;
      clearTimeout(refetchTimer);
      feed?.close();
      outputs?.dispose();
      jobLoop.stop();
      deliveriesLoop.stop();
    },
  };
}

/**
 * Deliveries are planned when the job ends and tried until they settle. A job with none a while
 * after its end had nobody to notify.
 */
function deliveriesMayChange(job: JobView, deliveries: JobDeliveriesView): boolean {
  if (!isFinished(job) || !job.finishedAt) return true;
  if (deliveries.items.length > 0) return !deliveriesSettled(deliveries);
  return Date.now() - Date.parse(job.finishedAt) < DELIVERIES_GRACE_MS;
}

/** Runs an action of a button, showing its outcome (or the api's refusal) beside it. */
async function act(button: HTMLButtonElement, outcome: HTMLElement, action: () => Promise<string>): Promise<void> {
  button.disabled = true;
  outcome.textContent = 'Working…';
  try {
    outcome.textContent = await action();
    outcome.className = 'outcome';
  } catch (error) {
    outcome.textContent = describeError(error);
    outcome.className = 'outcome error';
  } finally {
    button.disabled = false;
  }
}
