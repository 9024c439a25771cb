import { stopServices } from '@longhaul/testing';

/** Stops the services; the native stack stays up. */
export default async function globalTeardown(): Promise<void> {
  await stopServices(globalThis.__longhaulDashboard?.services);
}
