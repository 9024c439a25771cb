// Public routes are declared where they live, shared libs included, so the marker is the platform's.
export { IS_PUBLIC, Public } from '@longhaul/platform';
