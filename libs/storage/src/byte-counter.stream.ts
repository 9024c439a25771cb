import { Transform, type TransformCallback } from 'node:stream';

import { BlobRequestInvalidError } from './blob.errors';

/**
 * Passes bytes through and counts them. When the writer promised a length, a body that ends
 * short or long fails the stream before the driver commits it, so a truncated upload is never
 * stored under its key.
 */
export class ByteCounter extends Transform {
  bytes = 0;

  constructor(
    private readonly key: string,
    private readonly expectedLength?: number,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytes += chunk.length;
    callback(null, chunk);
  }

  override _flush(callback: TransformCallback): void {
    if (this.expectedLength !== undefined && this.bytes !== this.expectedLength) {
      callback(
        new BlobRequestInvalidError(`body of "${this.key}" had ${this.bytes} bytes, ${this.expectedLength} were announced`, {
          key: this.key,
          bytes: this.bytes,
          expectedLength: this.expectedLength,
        }),
      );
      return;
    }
    callback();
  }
}
