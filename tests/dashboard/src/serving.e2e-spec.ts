import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { sampleJobRequest, workspaceRoot } from '@longhaul/testing';
import { dashboardEnv } from './dashboard.session';

/** How the api serves the dashboard, over plain HTTP. */
describe('the dashboard, as the api serves it', () => {
  const { api, apiUrl, jaegerUrl } = dashboardEnv();
  const get = (path: string) => fetch(`${apiUrl}${path}`, { redirect: 'manual' });

  it('redirects /dashboard to /dashboard/, which is the page, never cached unchecked', async () => {
    const bare = await get('/dashboard');
    expect(bare.status).toBe(301);
    expect(bare.headers.get('location')).toBe('/dashboard/');

    const page = await get('/dashboard/');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('cache-control')).toBe('no-cache');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(await page.text()).toContain('<script type="module" src="main.js"></script>');
  });

  it.each([
    ['/dashboard/main.js', /^text\/javascript/],
    ['/dashboard/jobs-list.page.js', /^text\/javascript/],
    ['/dashboard/styles.css', /^text\/css/],
  ])('serves %s as %s', async (path, type) => {
    const response = await get(path);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(type);
    expect(response.headers.get('cache-control')).toBe('no-cache');
  });

  it('gives the page its settings: the Jaeger UI to link traces to', async () => {
    const response = await get('/dashboard/config.json');
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(await response.json()).toEqual({ jaegerUrl });
  });

  it('answers a missing file with a problem+json 404, and a path without extension with the page', async () => {
    const missing = await get('/dashboard/missing.js');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(await missing.json()).toMatchObject({ status: 404, code: 'not_found' });

    const route = await get('/dashboard/jobs/0190f4c2-7a1b-7c3d-8e4f-a1b2c3d4e5f6');
    expect(route.status).toBe(200);
    expect(route.headers.get('content-type')).toMatch(/^text\/html/);
  });

  it('serves hls.js beside the page when it is installed', async () => {
    const installed = existsSync(join(workspaceRoot(), 'node_modules/hls.js/dist/hls.min.js'));
    const response = await get('/dashboard/vendor/hls.min.js');
    expect(response.status).toBe(installed ? 200 : 404);
    if (installed) expect(response.headers.get('content-type')).toMatch(/^text\/javascript/);
  });

  it('leaves the API as it was: JSON bodies and its problem answers', async () => {
    const submitted = await api.submitJob(sampleJobRequest());
    expect(submitted.status).toBe(202);
    const refused = await fetch(`${apiUrl}/v1/jobs`, { method: 'POST', headers: api.withAuth({ 'content-type': 'text/plain' }), body: 'x' });
    expect(refused.status).toBe(415);
    expect(await refused.json()).toMatchObject({ code: 'unsupported_media_type' });
  });
});
