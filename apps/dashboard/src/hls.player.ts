// Plays a job's HLS master playlist in a <video>. Browsers with Media Source Extensions (Chrome,
// Firefox, Edge) need hls.js to read HLS; Safari plays it natively. hls.js is loaded on demand as
// a classic script the api serves beside the dashboard (tools/build copies it from the hls.js
// package into dist/apps/dashboard/vendor), so a page without a playlist never downloads it.

/** The part of hls.js's API used here (its global `Hls`, from the UMD build). */
interface HlsInstance {
  loadSource(url: string): void;
  attachMedia(media: HTMLMediaElement): void;
  on(event: string, listener: (event: string, data: { fatal?: boolean; type?: string; details?: string }) => void): void;
  destroy(): void;
}
interface HlsConstructor {
  new (config?: Record<string, unknown>): HlsInstance;
  isSupported(): boolean;
  Events: { ERROR: string };
}

declare global {
  interface Window {
    Hls?: HlsConstructor;
  }
}

/** Relative to the page's `<base href="/dashboard/">`. */
const HLS_SCRIPT = 'vendor/hls.min.js';
const HLS_MIME_TYPE = 'application/vnd.apple.mpegurl';

/** How the video plays its playlist: `hls.js`, the browser's `native` HLS, or not at all. */
export type PlaybackMode = 'hls.js' | 'native' | 'unsupported';

/** A playlist attached to a video; `detach` stops loading when the page goes away. */
export interface HlsPlayback {
  mode: PlaybackMode;
  detach(): void;
}

let hlsScript: Promise<HlsConstructor | null> | null = null;

/** Loads hls.js once per page; null when the file is missing (not installed when the dashboard was built). */
function loadHls(): Promise<HlsConstructor | null> {
  hlsScript ??= new Promise((resolve) => {
    if (window.Hls) return resolve(window.Hls);
    const script = document.createElement('script');
    script.src = HLS_SCRIPT;
    script.async = true;
    script.addEventListener('load', () => resolve(window.Hls ?? null));
    script.addEventListener('error', () => resolve(null));
    document.head.append(script);
  });
  return hlsScript;
}

/**
 * Attaches `playlistUrl` to `video`: through hls.js where the browser has Media Source
 * Extensions, else natively where the browser plays HLS itself. `onError` hears about fatal
 * playback errors.
 */
export async function attachHls(video: HTMLVideoElement, playlistUrl: string, onError: (message: string) => void): Promise<HlsPlayback> {
  const Hls = await loadHls();
  if (Hls?.isSupported()) {
    const hls = new Hls({ enableWorker: true });
    hls.on(Hls.Events.ERROR, (_event, data) => {
      if (data.fatal) onError(`playback failed: ${data.type ?? 'error'} ${data.details ?? ''}`.trim());
    });
    hls.loadSource(playlistUrl);
    hls.attachMedia(video);
    return { mode: 'hls.js', detach: () => hls.destroy() };
  }
  if (video.canPlayType(HLS_MIME_TYPE) !== '') {
    video.src = playlistUrl;
    video.addEventListener('error', () => onError('playback failed'), { once: true });
    return {
      mode: 'native',
      detach: () => {
        video.removeAttribute('src');
        video.load();
      },
    };
  }
  return { mode: 'unsupported', detach: () => undefined };
}
