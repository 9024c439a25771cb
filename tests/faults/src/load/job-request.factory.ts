/** The body of the `i`-th load job: a plain `video.process` job, subject to simulated failures. */
export function loadJobRequest(i: number): Record<string, unknown> {
  return { type: 'video.process', source: { url: `https://media.example.com/clip-${i}.mp4` } };
}

/**
 * The body of a recovery probe: a job told to succeed (`sim.outcome`), so the only thing that can
 * keep it from completing is the system not having recovered from the fault.
 */
export function probeJobRequest(i: number): Record<string, unknown> {
  return {
    type: 'video.process',
    source: { url: `https://media.example.com/probe-${i}.mp4` },
    metadata: { 'sim.outcome': 'succeed' },
  };
}
