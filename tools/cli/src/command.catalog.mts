/**
 * Every command, in the order `--help` lists them.
 */
import type { CommandDefinition } from './command.types.mts';
import { deadLetterReplayCommand } from './dead-letter-replay.command.mts';
import { deadLettersListCommand } from './dead-letters-list.command.mts';
import { eventsCommand } from './events.command.mts';
import { jobsListCommand } from './jobs-list.command.mts';
import { statusCommand } from './status.command.mts';
import { submitCommand } from './submit.command.mts';

export const COMMANDS: readonly CommandDefinition[] = [
  submitCommand,
  statusCommand,
  jobsListCommand,
  eventsCommand,
  deadLettersListCommand,
  deadLetterReplayCommand,
];
