import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** What ffprobe reads from a URL or file (HLS playlists included): format and streams. */
export interface ProbeReport {
  format: { format_name: string; duration?: string };
  streams: Array<{ codec_type: string; codec_name: string; width?: number; height?: number }>;
}

/** Runs ffprobe on a 127.0.0.1 URL or a local file, allowing only what reading it needs. */
export async function ffprobe(target: string): Promise<ProbeReport> {
  const { stdout } = await run('ffprobe', [
    '-v', 'error',
    '-protocol_whitelist', 'file,http,tcp,crypto',
    '-show_format', '-show_streams', '-of', 'json',
    target,
  ]);
  return JSON.parse(stdout) as ProbeReport;
}
