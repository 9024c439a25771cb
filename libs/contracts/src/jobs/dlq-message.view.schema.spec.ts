import type { z } from 'zod';
import type { DlqMessageListView, DlqMessageView } from './dlq-message.view';
import { DlqMessageListViewSchema, DlqMessageViewSchema } from './dlq-message.view.schema';

// Compile-time: each schema's type and its view are assignable both ways.
const bothWays = [
  (p: z.infer<typeof DlqMessageViewSchema>): DlqMessageView => p,
  (v: DlqMessageView): z.infer<typeof DlqMessageViewSchema> => v,
  (p: z.infer<typeof DlqMessageListViewSchema>): DlqMessageListView => p,
  (v: DlqMessageListView): z.infer<typeof DlqMessageListViewSchema> => v,
];

describe('DlqMessageViewSchema', () => {
  it('is the dead-lettered message views, both ways (checked by the compiler)', () => {
    expect(bothWays).toHaveLength(4);
  });

  it('accepts a recorded message and refuses an id that is not a positive whole number', () => {
    const at = '2026-12-06T04:30:00.000Z';
    const message: DlqMessageView = {
      id: '42', dlqTopic: 'job.events.dlq', dlqPartition: 0, dlqOffset: '7', sourceTopic: 'job.events', source: 'job.events/0/3',
      errorCode: 'message_type_unknown', errorMessage: 'no handler', eventId: '0193a7c4-5d6e-7f80-9a1b-2c3d4e5f6a7b', eventType: 'StepExploded.v9',
      key: '0193a7c4-5d6e-7f80-9a1b-2c3d4e5f6a7c', headers: { id: '0193a7c4-5d6e-7f80-9a1b-2c3d4e5f6a7b' }, value: '{}', traceId: null,
      deadLetteredAt: at, recordedAt: at, replayedAt: null, notReplayable: null,
    };
    expect(DlqMessageViewSchema.safeParse(message).success).toBe(true);
    for (const id of ['0', '-1', '1e3', '1234567890123456789']) expect(DlqMessageViewSchema.safeParse({ ...message, id }).success).toBe(false);
  });
});
