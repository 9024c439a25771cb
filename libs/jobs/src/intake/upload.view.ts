import type { MediaProbe } from '@longhaul/media';

/** An upload as the API returns it (`POST /v1/uploads`, `GET /v1/uploads/{id}`). */
export interface UploadView {
  /** What a job names as `source.uploadId`. */
  id: string;
  sizeBytes: number;
  /** The media type the client sent (`video/mp4`, `application/octet-stream`, …). */
  contentType: string | null;
  /** The display name from the upload's `Content-Disposition`, if any. */
  filename: string | null;
  /** What ffprobe said about it. */
  media: MediaProbe;
  /** ISO 8601. */
  createdAt: string;
}
