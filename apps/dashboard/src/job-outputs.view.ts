import type { DownloadView, JobView } from '@longhaul/contracts';
import { el } from './dom.builder.js';
import { attachHls, type HlsPlayback } from './hls.player.js';
import { emptyState } from './widgets.view.js';

/** The outputs section on screen; `dispose` stops the player. */
export interface OutputsView {
  element: HTMLElement;
  dispose(): void;
}

const byKind = (downloads: DownloadView[], kind: DownloadView['kind']): DownloadView[] => downloads.filter((d) => d.kind === kind);

/** A URL the api gave, used only when it is http(s) or a path of this origin: nothing else reaches an href or src. */
function safeUrl(url: string): string | null {
  try {
    const parsed = new URL(url, location.origin);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : null;
  } catch {
    return null;
  }
}

/**
 * What the job produced: the HLS player for its master playlist, the poster and thumbnails as
 * images, and links to the MP4s, the rendition playlists and the sprite sheet. Simulated and
 * placeholder runs write no files, so their jobs show the "no outputs" state.
 */
export function jobOutputsView(job: JobView): OutputsView {
  const downloads = job.downloads.filter((download) => safeUrl(download.url) !== null);
  const finished = job.status === 'completed' || job.status === 'failed' || job.status === 'cancelled';
  const player = playerView(byKind(downloads, 'hls_master')[0] ?? null, byKind(downloads, 'poster')[0] ?? null);
  const element = el(
    'section',
    { testId: 'job-outputs', attrs: { 'aria-labelledby': 'outputs-heading' } },
    el('h3', { attrs: { id: 'outputs-heading' } }, 'Outputs'),
    player.element,
    downloads.length === 0
      ? emptyState(finished ? 'This job produced no files.' : 'No outputs yet: files appear here as its steps finish.', 'outputs-empty')
      : el('div', { className: 'outputs' }, images(downloads), links(downloads)),
  );
  return { element, dispose: player.dispose };
}

function playerView(master: DownloadView | null, poster: DownloadView | null): OutputsView {
  if (!master) {
    return {
      element: el('div', { testId: 'player', className: 'player' }, emptyState('No HLS master playlist to play.', 'player-empty')),
      dispose: () => undefined,
    };
  }
  const video = el('video', {
    testId: 'player-video',
    attrs: { controls: true, preload: 'metadata', playsinline: true, poster: poster ? safeUrl(poster.url) : null, 'aria-label': 'HLS playback of the job\'s master playlist' },
  });
  const state = el('p', { testId: 'player-state', className: 'muted', attrs: { 'aria-live': 'polite' } }, 'Loading the player…');
  let playback: HlsPlayback | null = null;
  let disposed = false;
  void attachHls(video, safeUrl(master.url)!, (message) => (state.textContent = message)).then((attached) => {
    if (disposed) return attached.detach();
    playback = attached;
    state.dataset['mode'] = attached.mode;
    state.textContent =
      attached.mode === 'unsupported' ? 'This browser cannot play HLS here; open the playlist or an MP4 below.' : `The master playlist is loaded (${attached.mode === 'native' ? 'native HLS' : 'hls.js'}).`;
  });
  return {
    element: el('div', { testId: 'player', className: 'player' }, video, state),
    dispose: () => {
      disposed = true;
      playback?.detach();
    },
  };
}

function images(downloads: DownloadView[]): HTMLElement {
  const figure = (download: DownloadView, caption: string, testId: string) =>
    el('figure', {}, el('img', { testId, attrs: { src: safeUrl(download.url), alt: caption, loading: 'lazy' } }), el('figcaption', {}, caption));
  const poster = byKind(downloads, 'poster')[0];
  const thumbnails = byKind(downloads, 'thumbnail');
  const gallery = el('div', { className: 'gallery', testId: 'thumbnails' });
  thumbnails.forEach((download, index) => gallery.append(figure(download, `Thumbnail ${index + 1}`, 'thumbnail')));
  const section = el('div', { className: 'images' });
  if (poster) section.append(figure(poster, 'Poster', 'poster'));
  if (thumbnails.length > 0) section.append(gallery);
  return section;
}

function links(downloads: DownloadView[]): HTMLElement {
  const labels: Record<DownloadView['kind'], string> = {
    hls_master: 'HLS master playlist',
    hls_playlist: 'HLS playlist',
    mp4: 'MP4',
    poster: 'Poster',
    thumbnail: 'Thumbnail',
    sprite: 'Sprite sheet',
    sprite_vtt: 'Sprite WebVTT index',
  };
  const list = el('ul', { className: 'downloads', testId: 'downloads' });
  for (const download of downloads) {
    if (download.kind === 'thumbnail') continue;
    const name = `${labels[download.kind]}${download.rendition ? ` ${download.rendition}` : ''}`;
    list.append(
      el(
        'li',
        {},
        el('a', { testId: `download-${download.kind}`, attrs: { href: safeUrl(download.url), download: download.kind === 'mp4' ? '' : null, rel: 'noopener' } }, name),
        download.expiresAt ? el('span', { className: 'muted' }, ` (link valid until ${download.expiresAt})`) : null,
      ),
    );
  }
  return list;
}

/**
 * What the outputs section shows, to rebuild it only when that changed, so the video keeps
 * playing while the job page refreshes. Presigned URLs are left out: every read signs them anew.
 */
export function outputsSignature(job: JobView): string {
  const finished = job.status === 'completed' || job.status === 'failed' || job.status === 'cancelled';
  return JSON.stringify([finished, job.downloads.map((d) => `${d.kind}:${d.rendition ?? ''}`)]);
}
