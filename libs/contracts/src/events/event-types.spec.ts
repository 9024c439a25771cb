import { EventSchemas, EventTypes, isEventType } from './event-types';

describe('event catalogue', () => {
  it('knows every declared type and no other', () => {
    for (const type of Object.values(EventTypes)) expect(isEventType(type)).toBe(true);
    expect(isEventType('StepCompleted')).toBe(false);
    expect(isEventType('toString')).toBe(false);
  });

  it('refuses a step result without an attempt number', () => {
    const parsed = EventSchemas[EventTypes.StepCompletedV1].safeParse({
      jobId: '0192f0c4-1d5e-7a3b-9c4d-5e6f7a8b9c0d',
      step: 'transcode',
      worker: 'w1',
      result: {},
      completedAt: new Date().toISOString(),
    });
    expect(parsed.success).toBe(false);
  });
});
