import { stopServices } from '@longhaul/testing';
import { stopExtraServices } from './extra-services';

/** Stops the services (gracefully) and a Docker stack if one was started; a native stack stays up for reuse. */
export default async function globalTeardown(): Promise<void> {
  await stopServices(globalThis.__longhaul?.services);
  await stopExtraServices();
  await globalThis.__longhaul?.stopDocker?.();
}
