import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { serviceNodeOptions } from './service.build';
import { workspaceRoot } from './stack.harness';

interface ProjectTargets {
  tags?: string[];
  targets: Record<string, { dependsOn?: (string | { projects?: string[]; target?: string })[]; options?: { command?: string } }>;
}

describe('how services are started', () => {
  const root = workspaceRoot();
  const project = (app: string) => JSON.parse(readFileSync(join(root, 'apps', app, 'project.json'), 'utf8')) as ProjectTargets;
  // Services are tagged type:app; a browser app (type:web, the dashboard) is served by the api.
  const apps = readdirSync(join(root, 'apps')).filter((app) => project(app).tags?.includes('type:app'));
  const webApps = readdirSync(join(root, 'apps')).filter((app) => project(app).tags?.includes('type:web'));

  it.each(apps)('nx serve %s runs the build with the same Node options as the test harness', (app) => {
    const serve = project(app).targets['serve']!;
    expect(serve.dependsOn).toContain('build');
    expect(serve.options?.command).toBe(`node ${serviceNodeOptions(app).join(' ')} dist/apps/${app}/src/main.js`);
    expect(project(app).targets['build']?.options?.command).toBe(`node tools/build/src/build.mts ${app}`);
  });

  it('holds only the api, which takes uploads, to a small young generation', () => {
    expect(serviceNodeOptions('api')).toContain('--max-semi-space-size=4');
    for (const app of apps.filter((a) => a !== 'api')) expect(serviceNodeOptions(app)).toEqual(['--enable-source-maps']);
  });

  it('builds the dashboard with the api, which serves it', () => {
    expect(webApps).toEqual(['dashboard']);
    expect(project('dashboard').targets['build']?.options?.command).toBe('node tools/build/src/build.mts dashboard');
    expect(project('api').targets['build']?.dependsOn).toContainEqual({ projects: ['dashboard'], target: 'build' });
  });
});
