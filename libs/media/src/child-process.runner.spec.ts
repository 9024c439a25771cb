import { runChildProcess } from './child-process.runner';

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('runChildProcess', () => {
  it('resolves with the exit code and the tail of stderr', async () => {
    const exit = await runChildProcess(process.execPath, ['-e', 'process.stderr.write("boom"); process.exit(3)'], { signal: new AbortController().signal });
    expect(exit).toEqual({ code: 3, signal: null, stderrTail: 'boom' });
  });

  it('hands stdout over as it arrives when asked, all of it before resolving', async () => {
    let stdout = '';
    const exit = await runChildProcess(process.execPath, ['-e', 'process.stdout.write("a=1\\n".repeat(20000))'], {
      signal: new AbortController().signal,
      onStdout: (chunk) => (stdout += chunk),
    });
    expect(exit.code).toBe(0);
    expect(stdout).toBe('a=1\n'.repeat(20000));
  });

  it('kills the child when the step aborts, and rejects only once it is gone', async () => {
    const controller = new AbortController();
    let pid = 0;
    const run = runChildProcess(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], {
      signal: controller.signal,
      onSpawn: (p) => {
        pid = p;
        controller.abort(new Error('deadline'));
      },
    });
    await expect(run).rejects.toThrow('deadline');
    expect(pid).toBeGreaterThan(0);
    expect(isAlive(pid)).toBe(false);
  });

  it('escalates to SIGKILL when the child ignores SIGTERM', async () => {
    const controller = new AbortController();
    let pid = 0;
    const stubborn = 'process.on("SIGTERM", () => {}); console.error("ready"); setInterval(() => {}, 1000)';
    const run = runChildProcess(process.execPath, ['-e', stubborn], { signal: controller.signal, killGraceMs: 100, onSpawn: (p) => (pid = p) });
    setTimeout(() => controller.abort(new Error('cancelled')), 300);
    await expect(run).rejects.toThrow('cancelled');
    expect(isAlive(pid)).toBe(false);
  });
});
