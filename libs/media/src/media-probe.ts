/** What ffprobe says about a video, as stored on a job. */
export interface MediaProbe {
  /** ffprobe's format name, e.g. `mov,mp4,m4a,3gp,3g2,mj2`. */
  formatName: string;
  durationSeconds: number;
  /**
   * The picture as a player shows it: rotation applied (a phone's portrait clip stored as
   * 1920×1080 with a 90° display matrix is 1080×1920 here) and non-square pixels widened.
   */
  width: number;
  /** See {@link MediaProbe.width}. */
  height: number;
  /** Clockwise degrees (0, 90, 180, 270) the player turns the stored picture; already in `width`/`height`. */
  rotation: number;
  videoCodec: string;
  /** Frames per second, when known. */
  frameRate: number | null;
  audioCodec: string | null;
  /** Overall bit rate in bit/s, when known. */
  bitRate: number | null;
  sizeBytes: number;
  /** ffprobe's index of the video stream used (the first one that is not cover art). */
  videoStreamIndex: number;
  /** ffprobe's index of the audio stream used, null when there is none. */
  audioStreamIndex: number | null;
}
