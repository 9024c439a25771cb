import { grantedFilePath, GRANT_EXPIRY_STEP_S, signDownloadGrant, verifyDownloadGrant } from './download-grant';

const KEY = 'k'.repeat(40);
const JOB = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';
const NOW = Date.UTC(2026, 10, 29, 12, 0, 7);

describe('download grants', () => {
  it('names the job it was signed for until it expires', () => {
    const { grant, expiresAt } = signDownloadGrant(KEY, JOB, 3600, NOW);
    expect(grant).toMatch(/^g1\.[0-9a-f]{32}\.[0-9a-z]+\.[A-Za-z0-9_-]{22}$/);
    expect(expiresAt.getTime()).toBeGreaterThanOrEqual(NOW + 3600_000);
    expect(expiresAt.getTime()).toBeLessThan(NOW + (3600 + GRANT_EXPIRY_STEP_S) * 1000);
    expect(verifyDownloadGrant(KEY, grant, NOW)).toBe(JOB);
    expect(verifyDownloadGrant(KEY, grant, expiresAt.getTime() - 1)).toBe(JOB);
    expect(verifyDownloadGrant(KEY, grant, expiresAt.getTime())).toBeNull();
  });

  it('gives the same grant within one expiry step, so links stay stable', () => {
    const start = Math.floor(NOW / (GRANT_EXPIRY_STEP_S * 1000)) * GRANT_EXPIRY_STEP_S * 1000;
    expect(signDownloadGrant(KEY, JOB, 60, start + 1000).grant).toBe(signDownloadGrant(KEY, JOB, 60, start + 200_000).grant);
  });

  it('refuses a grant signed with another key, or changed in any part', () => {
    const { grant } = signDownloadGrant(KEY, JOB, 3600, NOW);
    expect(verifyDownloadGrant('x'.repeat(40), grant, NOW)).toBeNull();
    const [, id, expiry, mac] = grant.split('.') as [string, string, string, string];
    const otherJob = `${id.slice(0, -1)}${id.endsWith('0') ? '1' : '0'}`;
    expect(verifyDownloadGrant(KEY, `g1.${otherJob}.${expiry}.${mac}`, NOW)).toBeNull();
    expect(verifyDownloadGrant(KEY, `g1.${id}.${(parseInt(expiry, 36) + 1).toString(36)}.${mac}`, NOW)).toBeNull();
    expect(verifyDownloadGrant(KEY, `g1.${id}.${expiry}.${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}`, NOW)).toBeNull();
    expect(verifyDownloadGrant(KEY, 'g1.nope', NOW)).toBeNull();
  });

  it('builds file paths under the grant, so relative references keep it', () => {
    const { grant } = signDownloadGrant(KEY, JOB, 3600, NOW);
    const path = grantedFilePath(grant, JOB, `jobs/${JOB}/hls/master.m3u8`);
    expect(path).toBe(`/v1/files/${grant}/hls/master.m3u8`);
    expect(new URL('720p/index.m3u8', `http://api${path}`).pathname).toBe(`/v1/files/${grant}/hls/720p/index.m3u8`);
  });
});
