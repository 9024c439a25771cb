import { stopServices } from '@longhaul/testing';

/** Stops the services (gracefully) and a Docker stack if one was started; a native stack stays up for reuse. */
export default async function globalTeardown(): Promise<void> {
  await stopServices(globalThis.__longhaul?.services);
  await globalThis.__longhaul?.stopDocker?.();
}
