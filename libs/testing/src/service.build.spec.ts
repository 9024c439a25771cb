import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SERVICE_NODE_OPTIONS } from './service.build';
import { workspaceRoot } from './stack.harness';

interface ProjectTargets {
  targets: Record<string, { dependsOn?: string[]; options?: { command?: string } }>;
}

describe('how services are started', () => {
  const root = workspaceRoot();
  const apps = readdirSync(join(root, 'apps'));

  it.each(apps)('nx serve %s runs the build with the same Node options as the test harness', (app) => {
    const project = JSON.parse(readFileSync(join(root, 'apps', app, 'project.json'), 'utf8')) as ProjectTargets;
    const serve = project.targets['serve']!;
    expect(serve.dependsOn).toContain('build');
    expect(serve.options?.command).toBe(`node ${SERVICE_NODE_OPTIONS.join(' ')} dist/apps/${app}/src/main.js`);
    expect(project.targets['build']?.options?.command).toBe(`node tools/build/src/build.mts ${app}`);
  });
});
