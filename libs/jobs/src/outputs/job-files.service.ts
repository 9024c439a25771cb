import { Inject, Injectable } from '@nestjs/common';
import type { Readable } from 'node:stream';
import { ErrorCodes, LonghaulError } from '@longhaul/contracts';
import { withConnection, type DataSource } from '@longhaul/persistence';
import { DATA_SOURCE } from '@longhaul/platform';
import { BLOB_STORE, type BlobStore } from '@longhaul/storage';
import { JobNotFoundError } from '../job.errors';
import { JOBS_OPTIONS, type JobsModuleOptions } from '../jobs.options';
import { resolveByteRange } from './byte-range';
import { jobFilePath } from './job-outputs';
import { rewritePlaylist, rewriteSpriteVtt } from './playlist.rewriter';
import { grantedFilePath, verifyDownloadGrant } from './download-grant';

const CONTENT_TYPES: Record<string, string> = {
  m3u8: 'application/vnd.apple.mpegurl',
  ts: 'video/mp2t',
  m4s: 'video/iso.segment',
  mp4: 'video/mp4',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  vtt: 'text/vtt',
};

/** A path segment of a job file: no traversal, no hidden files, no separators. */
const SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,127}$/;

/** A download link whose grant is forged, damaged or expired: as good as no link (404). */
export class DownloadGrantInvalidError extends LonghaulError {
  constructor() {
    super(ErrorCodes.notFound, 'this download link is not valid or has expired: get a fresh one from the job', false);
  }
}

/** How a file request was authorised: a tenant's API key, or a download grant (already verified) for the job. */
export type JobFileAccess = { tenantId: string } | { grant: string };

/** What the api answers for a job file. */
export type JobFileAnswer =
  | { kind: 'redirect'; url: string }
  | { kind: 'text'; contentType: string; body: string }
  | { kind: 'stream'; status: 200 | 206; headers: Record<string, string>; body: Readable }
  | { kind: 'unsatisfiable'; size: number };

export class JobFileNotFoundError extends LonghaulError {
  constructor(path: string) {
    super(ErrorCodes.notFound, `no file '${path}' for this job`, false);
  }
}

/**
 * Serves a job's output files at `/v1/jobs/{id}/files/<path>`. Paths are checked segment by
 * segment (no `..`, no separators), so no request reaches outside `jobs/<id>/`. Filesystem blobs
 * are streamed with HTTP range support (a player seeks with it); object-storage blobs redirect
 * to a presigned URL, except playlists and sprite indexes, whose references are rewritten.
 */
@Injectable()
export class JobFilesService {
  constructor(
    @Inject(DATA_SOURCE) private readonly dataSource: DataSource,
    @Inject(BLOB_STORE) private readonly store: BlobStore | null,
    @Inject(JOBS_OPTIONS) private readonly options: JobsModuleOptions,
  ) {}

  /** A file through a download link (`/v1/files/<grant>/<path>`): the grant is the only credential. */
  async openWithGrant(grant: string, segments: string[], rangeHeader: string | undefined): Promise<JobFileAnswer> {
    const jobId = verifyDownloadGrant(this.options.downloadSigningKey, grant);
    if (!jobId) throw new DownloadGrantInvalidError();
    return this.open(jobId, segments, rangeHeader, { grant });
  }

  /** `access`: an API key's tenant (404 for another tenant's job), or a verified download grant for this job. */
  async open(jobId: string, segments: string[], rangeHeader: string | undefined, access: JobFileAccess): Promise<JobFileAnswer> {
    const path = segments.join('/');
    if (!this.store || segments.length === 0 || !segments.every((s) => SEGMENT.test(s))) throw new JobFileNotFoundError(path);
    const tenantId = 'tenantId' in access ? access.tenantId : null;
    const exists = await withConnection(this.dataSource, (sql) =>
      sql.rows(`SELECT 1 FROM api.jobs WHERE id = $1 AND ($2::uuid IS NULL OR tenant_id = $2)`, [jobId, tenantId]),
    );
    // Rewritten references to other api-served files keep the way this one was reached.
    const apiPath = (target: string) => ('grant' in access ? grantedFilePath(access.grant, jobId, target) : jobFilePath(jobId, target));
    if (exists.length === 0) throw new JobNotFoundError(jobId);
    const key = `jobs/${jobId}/${path}`;
    const info = await this.store.stat(key);
    if (!info) throw new JobFileNotFoundError(path);
    const extension = path.slice(path.lastIndexOf('.') + 1).toLowerCase();
    const contentType = CONTENT_TYPES[extension] ?? info.contentType ?? 'application/octet-stream';
    const ttl = this.options.downloadUrlTtlSeconds;
    if (this.store.driver === 's3') {
      const directory = key.slice(0, key.lastIndexOf('/') + 1);
      const resolve = async (uri: string) => {
        if (/^[a-z]+:/i.test(uri) || uri.startsWith('/')) return uri;
        const target = `${directory}${uri}`;
        return target.endsWith('.m3u8') ? apiPath(target) : ((await this.store!.signedUrl(target, ttl)) ?? uri);
      };
      if (extension === 'm3u8' || extension === 'vtt') {
        const text = await streamToString((await this.store.get(key)).body);
        return { kind: 'text', contentType, body: extension === 'm3u8' ? await rewritePlaylist(text, resolve) : await rewriteSpriteVtt(text, resolve) };
      }
      const url = await this.store.signedUrl(key, ttl);
      if (url) return { kind: 'redirect', url };
    }
    const range = resolveByteRange(rangeHeader, info.size);
    if (range === 'unsatisfiable') return { kind: 'unsatisfiable', size: info.size };
    const headers: Record<string, string> = { 'content-type': contentType, 'accept-ranges': 'bytes' };
    if (!range) {
      const { body } = await this.store.get(key);
      return { kind: 'stream', status: 200, headers: { ...headers, 'content-length': String(info.size) }, body };
    }
    const { body } = await this.store.get(key, range);
    return {
      kind: 'stream',
      status: 206,
      headers: { ...headers, 'content-length': String(range.end - range.start + 1), 'content-range': `bytes ${range.start}-${range.end}/${info.size}` },
      body,
    };
  }
}

async function streamToString(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string));
  return Buffer.concat(chunks).toString('utf8');
}
