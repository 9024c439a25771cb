import { CommandUsageError, runOperatorCommand, type OperatorCommand } from './operator.command';

const spec: OperatorCommand = {
  usage: 'Usage: things <command>',
  options: { size: { type: 'string' } },
  run: async ({ command, rest, values, print }) => {
    if (command === 'fail') throw new CommandUsageError('fail needs nothing');
    if (command === 'crash') throw new Error('disk on fire');
    print({ command, rest, size: values['size'] }, `${command} ${rest.join(' ')} size=${String(values['size'])}`);
    return 0;
  },
};

async function run(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runOperatorCommand(argv, spec, (l) => out.push(l), (l) => err.push(l));
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('runOperatorCommand', () => {
  it('hands the command, its arguments and options to the body, as text or with --json as JSON', async () => {
    expect(await run('show', 'a', 'b', '--size', '3')).toEqual({ code: 0, out: 'show a b size=3', err: '' });
    expect(await run('show', 'a', '--json')).toEqual({ code: 0, out: JSON.stringify({ command: 'show', rest: ['a'] }), err: '' });
  });

  it('prints the usage: for --help on stdout with exit 0, for no command on stderr with exit 2', async () => {
    expect(await run('-h')).toEqual({ code: 0, out: 'Usage: things <command>', err: '' });
    expect(await run()).toEqual({ code: 2, out: '', err: 'Usage: things <command>' });
  });

  it('answers a usage mistake, its own or the parser’s, with the mistake and the usage and exit 2', async () => {
    expect(await run('fail')).toEqual({ code: 2, out: '', err: 'fail needs nothing\n\nUsage: things <command>' });
    expect(await run('show', '--colour', 'red')).toMatchObject({ code: 2, err: expect.stringContaining("Unknown option '--colour'") });
  });

  it('lets any other error through to the caller', async () => {
    await expect(run('crash')).rejects.toThrow('disk on fire');
  });
});
