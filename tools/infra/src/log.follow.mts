/**
 * `logs <component>`: print the last lines of a component log, optionally follow it.
 */
import { closeSync, existsSync, openSync, readSync, statSync, watchFile } from 'node:fs';

import { tailLog } from './process.supervisor.mts';

export async function followLog(file: string, lines: number, follow: boolean): Promise<void> {
  process.stdout.write(`${existsSync(file) ? tailLog(file, lines) : `(no log yet at ${file})`}\n`);
  if (!follow) return;
  let position = existsSync(file) ? statSync(file).size : 0;
  await new Promise<never>(() => {
    watchFile(file, { interval: 300 }, (current) => {
      // Rotated or truncated: start over from the top of the new file.
      if (current.size < position) position = 0;
      if (current.size === position) return;
      const fd = openSync(file, 'r');
      try {
        const buffer = Buffer.alloc(current.size - position);
        readSync(fd, buffer, 0, buffer.length, position);
        process.stdout.write(buffer);
        position = current.size;
      } finally {
        closeSync(fd);
      }
    });
  });
}
