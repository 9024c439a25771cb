import { stopServices } from '@longhaul/testing';

/** Stops the media-mode services; the native stack stays up. */
export default async function globalTeardown(): Promise<void> {
  await stopServices(globalThis.__longhaulMedia?.services);
}
