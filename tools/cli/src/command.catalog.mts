/**
 * Every command, in the order `--help` lists them.
 */
import { apiKeyCreateCommand } from './api-key-create.command.mts';
import { apiKeyRevokeCommand } from './api-key-revoke.command.mts';
import { apiKeyRotateCommand } from './api-key-rotate.command.mts';
import { apiKeyUpdateCommand } from './api-key-update.command.mts';
import { apiKeyShowCommand } from './api-key-show.command.mts';
import { apiKeysListCommand } from './api-keys-list.command.mts';
import type { CommandDefinition } from './command.types.mts';
import { deadLetterReplayCommand } from './dead-letter-replay.command.mts';
import { deadLettersListCommand } from './dead-letters-list.command.mts';
import { dlqMessageDeleteCommand } from './dlq-message-delete.command.mts';
import { dlqMessageReplayCommand } from './dlq-message-replay.command.mts';
import { dlqMessageShowCommand } from './dlq-message-show.command.mts';
import { dlqMessagesListCommand } from './dlq-messages-list.command.mts';
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
  dlqMessagesListCommand,
  dlqMessageShowCommand,
  dlqMessageReplayCommand,
  dlqMessageDeleteCommand,
  apiKeysListCommand,
  apiKeyShowCommand,
  apiKeyCreateCommand,
  apiKeyUpdateCommand,
  apiKeyRotateCommand,
  apiKeyRevokeCommand,
];
