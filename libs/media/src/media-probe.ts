/** What ffprobe says about a video, as stored on a job. */
export interface MediaProbe {
  /** ffprobe's format name, e.g. `mov,mp4,m4a,3gp,3g2,mj2`. */
  formatName: string;
  durationSeconds: number;
  width: number;
  height: number;
  videoCodec: string;
  /** Frames per second, when known. */
  frameRate: number | null;
  audioCodec: string | null;
  /** Overall bit rate in bit/s, when known. */
  bitRate: number | null;
  sizeBytes: number;
}
