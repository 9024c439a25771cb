/** Injection token of the saga's plain (non-Nest) collaborators, shared by the saga, scheduler, watchdog, cancel and replay. */
export const SAGA_DEPS = Symbol('longhaul.sagaDeps');
