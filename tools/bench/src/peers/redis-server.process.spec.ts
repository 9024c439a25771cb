import { redisServerArgs } from './redis-server.process';

describe('redisServerArgs', () => {
  it('keeps everything in memory by default: no snapshots, no append-only file', () => {
    expect(redisServerArgs(17_580, '/tmp/r', false)).toEqual(['--port', '17580', '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', '/tmp/r', '--daemonize', 'no']);
  });

  it('fsyncs every write to the append-only file when durable', () => {
    const args = redisServerArgs(17_581, '/tmp/r', true);
    expect(args).toEqual(expect.arrayContaining(['--appendonly', 'yes', '--appendfsync', 'always', '--save', '']));
    expect(args[args.indexOf('--appendonly') + 1]).toBe('yes');
  });
});
