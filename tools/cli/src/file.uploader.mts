/**
 * `POST /v1/uploads` for a local file: the file is streamed from disk as the request body
 * (never read into memory, so a 2 GiB upload costs a few MiB), with its `Content-Length` so
 * the api can refuse an oversized file before reading it, and progress reported per chunk.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import type { ApiClient } from './api.client.mts';
import type { UploadView } from './api.types.mts';
import { UsageError } from './cli.errors.mts';
import { uploadContentDisposition, uploadContentType } from './media-type.policy.mts';

/** Read size per chunk: large enough for few syscalls, small enough for smooth progress. */
const CHUNK_BYTES = 1024 * 1024;

export interface LocalFile {
  path: string;
  sizeBytes: number;
}

/** The file to upload, or a `UsageError` when there is none at `path`. */
export async function localFile(path: string): Promise<LocalFile> {
  try {
    const info = await stat(path);
    if (!info.isFile()) throw new UsageError(`${path} is not a file`);
    return { path, sizeBytes: info.size };
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(code === 'ENOENT' ? `no such file: ${path}` : `cannot read ${path}: ${code ?? String(error)}`);
  }
}

/** Uploads `file`; `onProgress(sent, total)` follows the bytes handed to the connection. */
export async function uploadFile(client: ApiClient, file: LocalFile, onProgress: (sentBytes: number, totalBytes: number) => void): Promise<UploadView> {
  const stream = createReadStream(file.path, { highWaterMark: CHUNK_BYTES });
  let sent = 0;
  async function* counted(): AsyncGenerator<Uint8Array> {
    for await (const chunk of stream) {
      const bytes = chunk as Buffer;
      yield bytes;
      // Counted once fetch pulled the chunk: the pull happens when the socket can take more.
      sent += bytes.byteLength;
      onProgress(sent, file.sizeBytes);
    }
  }
  onProgress(0, file.sizeBytes);
  try {
    const response = await client.post<UploadView>('/v1/uploads', {
      body: ReadableStream.from(counted()),
      headers: {
        'content-type': uploadContentType(file.path),
        'content-length': String(file.sizeBytes),
        'content-disposition': uploadContentDisposition(basename(file.path)),
      },
    });
    return response.body;
  } finally {
    // A refused or failed upload leaves the generator suspended; close the file now, not at GC.
    stream.destroy();
  }
}
