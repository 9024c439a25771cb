import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { segmentsToCreate } from './postgres.wal-pool.mts';

const MB = 1024 * 1024;

describe('segmentsToCreate', () => {
  it('creates what a new cluster lacks of min_wal_size', () => {
    // 2 GB of 16 MB segments is 128; initdb leaves one.
    assert.equal(segmentsToCreate(1, 2048 * MB, 16 * MB), 127);
  });

  it('creates nothing once pg_wal holds min_wal_size or more', () => {
    assert.equal(segmentsToCreate(128, 2048 * MB, 16 * MB), 0);
    assert.equal(segmentsToCreate(130, 2048 * MB, 16 * MB), 0);
  });

  it('creates nothing for settings it cannot read', () => {
    assert.equal(segmentsToCreate(1, Number.NaN, 16 * MB), 0);
    assert.equal(segmentsToCreate(1, 2048 * MB, 0), 0);
  });
});
