import assert from 'node:assert/strict';
import { mkdtemp, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ApiClient } from './api.client.mts';
import { UsageError } from './cli.errors.mts';
import { localFile, uploadFile } from './file.uploader.mts';
import { sendJson, startStubApi } from './stub-api.testing.mts';

const MiB = 1024 * 1024;
let workDir: string;

before(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'longhaul-cli-upload-'));
});
after(async () => {
  await rm(workDir, { recursive: true, force: true });
});

describe('uploadFile', () => {
  it('streams a large file without ever holding it in memory', async () => {
    const api = await startStubApi((request, response) => sendJson(response, 201, { id: 'up-big', sizeBytes: request.bodyBytes }), { discardBodies: true });
    try {
      const path = join(workDir, 'big.mp4');
      const size = 256 * MiB;
      await writeFile(path, '');
      await truncate(path, size); // sparse: no disk space, reads as zeros
      const baseline = process.memoryUsage().arrayBuffers;
      let peak = 0;
      const sent: number[] = [];

      const upload = await uploadFile(new ApiClient(new URL(api.url)), await localFile(path), (bytes) => {
        sent.push(bytes);
        peak = Math.max(peak, process.memoryUsage().arrayBuffers - baseline);
      });

      assert.equal(upload.sizeBytes, size);
      assert.equal(api.requests[0]?.headers['content-length'], String(size));
      assert.equal(sent[0], 0);
      assert.equal(sent.at(-1), size);
      assert.ok(sent.every((bytes, index) => index === 0 || bytes > (sent[index - 1] ?? 0)), 'progress only grows');
      // Held whole, the upload would show as 256 MiB of buffers here.
      assert.ok(peak < 96 * MiB, `peak of ${Math.round(peak / MiB)} MiB in buffers`);
    } finally {
      await api.close();
    }
  });

  it('refuses what is not a readable file as bad usage', async () => {
    await assert.rejects(localFile(join(workDir, 'missing.mp4')), (error: unknown) => error instanceof UsageError && /no such file/.test(error.message));
    await assert.rejects(localFile(workDir), (error: unknown) => error instanceof UsageError && /is not a file/.test(error.message));
  });
});
