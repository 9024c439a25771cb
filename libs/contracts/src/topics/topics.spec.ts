import { DEAD_LETTER_TOPICS, deadLetterTopic, sourceTopicOf, Topics } from './topics';

describe('dead-letter topics', () => {
  it('name the topic they came from, and back', () => {
    expect(deadLetterTopic(Topics.jobEvents)).toBe('job.events.dlq');
    expect(sourceTopicOf('job.events.dlq')).toBe(Topics.jobEvents);
    expect(sourceTopicOf('job.events')).toBe('job.events');
  });

  it('stand beside every topic', () => {
    expect(DEAD_LETTER_TOPICS).toEqual(Object.values(Topics).map((topic) => `${topic}.dlq`));
  });
});
