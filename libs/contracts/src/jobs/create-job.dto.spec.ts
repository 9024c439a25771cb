import { CreateJobRequestSchema } from './create-job.dto';

describe('CreateJobRequestSchema', () => {
  it('accepts a minimal request and fills the outputs default', () => {
    const parsed = CreateJobRequestSchema.parse({ type: 'video.process', source: { url: 'https://example.com/a.mp4' } });
    expect(parsed.outputs).toEqual({});
  });

  it('refuses unknown fields, other job types and non-http sources, naming each path', () => {
    const parsed = CreateJobRequestSchema.safeParse({
      type: 'video.explode',
      source: { url: 'file:///etc/passwd' },
      outputs: { renditions: ['4k'] },
      extra: true,
    });
    expect(parsed.success).toBe(false);
    const paths = parsed.error?.issues.map((i) => i.path.join('.')) ?? [];
    expect(paths).toEqual(expect.arrayContaining(['type', 'source.url', 'outputs.renditions.0', '']));
  });
});
