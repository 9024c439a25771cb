import { checkLifecycleOrder, lastVersionByJob, type LifecycleMessage } from './lifecycle-order.check';

const JOB_A = '0190a1b2-0000-7000-8000-00000000000a';
const JOB_B = '0190a1b2-0000-7000-8000-00000000000b';

function event(jobId: string, version: number, id = `${jobId}-v${version}`, type = 'StepTransitioned.v1'): LifecycleMessage {
  return { key: jobId, value: JSON.stringify({ jobId, version }), headers: { id, eventType: type } };
}

/** An event that names the version before it, as the api writes them. */
function linked(jobId: string, previousVersion: number, version: number, type = 'JobStarted.v1'): LifecycleMessage {
  return { key: jobId, value: JSON.stringify({ jobId, version, previousVersion }), headers: { id: `${jobId}-${type}-v${version}`, eventType: type } };
}

describe('checkLifecycleOrder', () => {
  it('follows previousVersion where versions skip the step transitions not published', () => {
    const result = checkLifecycleOrder([linked(JOB_A, 0, 2), linked(JOB_B, 0, 1), linked(JOB_A, 2, 7, 'JobCompleted.v1')], {
      expectedLastVersion: new Map([[JOB_A, 7]]),
    });
    expect(result).toEqual({ jobs: 2, events: 3, duplicatesDropped: 0, violations: [] });
  });

  it('reports an event whose previousVersion is not the last version seen: the one between was lost', () => {
    const result = checkLifecycleOrder([linked(JOB_A, 0, 2), linked(JOB_A, 5, 7, 'JobCompleted.v1')]);
    expect(result.violations).toEqual([{ jobId: JOB_A, kind: 'out_of_order', detail: 'JobCompleted.v1 v7 (linked to v5) after v2' }]);
  });

  it('reports an event linked to the last one but not above it', () => {
    const result = checkLifecycleOrder([linked(JOB_A, 0, 2), linked(JOB_A, 2, 2, 'JobCompleted.v1')]);
    expect(result.violations.map((v) => v.kind)).toEqual(['out_of_order']);
  });

  it('accepts interleaved jobs whose versions each run 1, 2, 3', () => {
    const result = checkLifecycleOrder([event(JOB_A, 1), event(JOB_B, 1), event(JOB_A, 2), event(JOB_B, 2), event(JOB_A, 3)]);
    expect(result).toEqual({ jobs: 2, events: 5, duplicatesDropped: 0, violations: [] });
  });

  it('drops a redelivery with the same id and content, wherever it arrives', () => {
    const result = checkLifecycleOrder([event(JOB_A, 1), event(JOB_A, 2), event(JOB_A, 1), event(JOB_A, 2), event(JOB_A, 3)]);
    expect(result.violations).toEqual([]);
    expect(result.duplicatesDropped).toBe(2);
    expect(result.events).toBe(3);
  });

  it('reports a gap once and goes on from the version that arrived', () => {
    const result = checkLifecycleOrder([event(JOB_A, 1), event(JOB_A, 3), event(JOB_A, 4)]);
    expect(result.violations).toEqual([{ jobId: JOB_A, kind: 'out_of_order', detail: 'StepTransitioned.v1 v3 after v1' }]);
  });

  it('reports a job that does not start at 1', () => {
    const result = checkLifecycleOrder([event(JOB_A, 2)]);
    expect(result.violations.map((v) => v.detail)).toEqual(['StepTransitioned.v1 v2 as its first event']);
  });

  it('reports two events with one version under different ids, and a version going back', () => {
    const result = checkLifecycleOrder([event(JOB_A, 1), event(JOB_A, 2), event(JOB_A, 2, 'other-id'), event(JOB_A, 1, 'third-id')]);
    expect(result.violations.map((v) => v.kind)).toEqual(['out_of_order', 'out_of_order']);
  });

  it('reports one id carrying two different events', () => {
    const result = checkLifecycleOrder([event(JOB_A, 1, 'same'), event(JOB_A, 2, 'same')]);
    expect(result.violations).toEqual([{ jobId: JOB_A, kind: 'conflicting_duplicate', detail: 'event same seen with two contents' }]);
  });

  it('reports unreadable messages without stopping', () => {
    const result = checkLifecycleOrder([
      { key: JOB_A, value: 'not json', headers: { id: 'x' } },
      { key: JOB_A, value: JSON.stringify({ jobId: JOB_A, version: 1 }), headers: {} },
      { key: JOB_A, value: JSON.stringify({ jobId: JOB_A, version: 'one' }), headers: { id: 'y' } },
      { key: JOB_A, value: JSON.stringify({ jobId: JOB_A, version: 1, previousVersion: 'zero' }), headers: { id: 'z' } },
      event(JOB_A, 1),
    ]);
    expect(result.violations.map((v) => [v.kind, v.detail])).toEqual([
      ['unreadable', 'event x: value is not JSON'],
      ['unreadable', 'no id header'],
      ['unreadable', 'event y: no integer version'],
      ['unreadable', 'event z: previousVersion is not an integer'],
    ]);
    expect(result.events).toBe(1);
  });

  it('reports jobs whose last events never arrived', () => {
    const expected = new Map([
      [JOB_A, 3],
      [JOB_B, 2],
    ]);
    const result = checkLifecycleOrder([event(JOB_A, 1), event(JOB_A, 2), event(JOB_A, 3)], { expectedLastVersion: expected });
    expect(result.violations).toEqual([{ jobId: JOB_B, kind: 'tail_missing', detail: 'events end at v0, the job is at v2' }]);
  });
});

describe('lastVersionByJob', () => {
  it('gives the highest version seen per job', () => {
    expect(lastVersionByJob([event(JOB_A, 1), event(JOB_A, 2), event(JOB_A, 1), event(JOB_B, 1)])).toEqual(
      new Map([
        [JOB_A, 2],
        [JOB_B, 1],
      ]),
    );
  });
});
