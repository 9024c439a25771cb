/**
 * The `POST /v1/jobs` body for `submit`, from what the command line said. Parts the user did
 * not ask for are left out rather than sent empty, so the api's defaults apply (every
 * rendition, five thumbnails) and an api that does not know a part is only sent it when used.
 */
export type JobSource = { uploadId: string } | { url: string };

export interface JobRequestInput {
  source: JobSource;
  renditions?: string[];
  thumbnails?: number;
  metadata?: Record<string, string>;
  webhookUrl?: string;
  email?: string;
}

export interface JobRequest {
  type: 'video.process';
  source: JobSource;
  outputs?: { renditions?: string[]; thumbnails?: { count: number } };
  metadata?: Record<string, string>;
  notify?: { webhookUrl?: string; email?: string };
}

export function buildJobRequest(input: JobRequestInput): JobRequest {
  const request: JobRequest = { type: 'video.process', source: input.source };
  if (input.renditions !== undefined || input.thumbnails !== undefined) {
    request.outputs = {
      ...(input.renditions !== undefined ? { renditions: input.renditions } : {}),
      ...(input.thumbnails !== undefined ? { thumbnails: { count: input.thumbnails } } : {}),
    };
  }
  if (input.metadata !== undefined && Object.keys(input.metadata).length > 0) request.metadata = input.metadata;
  if (input.webhookUrl !== undefined || input.email !== undefined) {
    request.notify = {
      ...(input.webhookUrl !== undefined ? { webhookUrl: input.webhookUrl } : {}),
      ...(input.email !== undefined ? { email: input.email } : {}),
    };
  }
  return request;
}
