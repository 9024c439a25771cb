/**
 * The run's clock and its progress log. Every moment is kept as epoch ms and reported relative
 * to the start, so a line in the timeline lines up with the report and the services' logs.
 */
export class RunTimeline {
  readonly startedAt = Date.now();

  /** ms since the run started. */
  since(at: number = Date.now()): number {
    return at - this.startedAt;
  }

  /** One line on stderr, outside Jest's console buffering, so a ten-minute run shows progress. */
  log(line: string): void {
    process.stderr.write(`[faults t+${(this.since() / 1000).toFixed(1).padStart(6)} s] ${line}\n`);
  }
}
