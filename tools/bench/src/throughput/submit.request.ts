/**
 * The job every submit run sends: the smallest `video.process` request the api takes — a URL
 * source (never fetched: the benchmark's api runs with `SOURCE_PROBE=false`), one rendition, and
 * the default thumbnails. With no probed duration the lane estimate assumes 60 s of media
 * (`LANE_ASSUMED_DURATION_S`), which with one 360p rendition is the fast lane. The insert ceiling
 * stores the same JSON, so both write a payload of the same size.
 */
export const SUBMIT_REQUEST = {
  type: 'video.process',
  source: { url: 'https://media.example.com/bench/clip.mp4' },
  outputs: { renditions: ['360p'] },
} as const;

export const SUBMIT_BODY = JSON.stringify(SUBMIT_REQUEST);
