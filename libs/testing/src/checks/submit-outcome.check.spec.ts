import { reconcileAcceptedJobs, submitsDuring, type SubmitRecord } from './submit-outcome.check';

const accepted = (key: string, jobId: string, at: number, kind: SubmitRecord['kind'] = 'load'): SubmitRecord => ({
  key,
  kind,
  jobId,
  attempts: [{ at, status: 202, jobId }],
});

describe('submitsDuring', () => {
  const records: SubmitRecord[] = [
    accepted('k1', 'j1', 100),
    accepted('k2', 'j2', 200),
    {
      key: 'k3',
      kind: 'load',
      jobId: 'j3',
      attempts: [
        { at: 150, status: 503 },
        { at: 180, status: null, error: 'ECONNREFUSED' },
        { at: 260, status: 202, jobId: 'j3', replayed: true },
      ],
    },
  ];

  it('counts only the attempts sent inside the window, ends included', () => {
    expect(submitsDuring(records, { label: 'kafka', from: 150, to: 200 })).toEqual({
      label: 'kafka',
      attempts: 3,
      accepted: 1,
      refused: [
        { key: 'k3', at: 150, status: 503 },
        { key: 'k3', at: 180, status: null, error: 'ECONNREFUSED' },
      ],
    });
  });

  it('reports an empty window as no attempts', () => {
    expect(submitsDuring(records, { label: 'connect', from: 300, to: 400 })).toEqual({ label: 'connect', attempts: 0, accepted: 0, refused: [] });
  });
});

describe('reconcileAcceptedJobs', () => {
  it('passes when every accepted job is stored and finished', () => {
    const result = reconcileAcceptedJobs([accepted('k1', 'j1', 1), accepted('k2', 'j2', 2, 'probe')], [
      { id: 'j1', status: 'completed' },
      { id: 'j2', status: 'failed' },
      { id: 'other', status: 'running' },
    ]);
    expect(result).toEqual({
      submitted: 2,
      accepted: 2,
      distinctJobIds: 2,
      found: 2,
      unaccepted: [],
      missing: [],
      notTerminal: [],
      sharedJobIds: [],
    });
  });

  it('reports lost, unfinished, unaccepted and shared jobs', () => {
    const records: SubmitRecord[] = [
      accepted('k1', 'j1', 1),
      accepted('k2', 'j2', 2),
      accepted('k3', 'j2', 3),
      { key: 'k4', kind: 'load', jobId: null, attempts: [{ at: 4, status: 422 }] },
      accepted('k5', 'j5', 5),
    ];
    const result = reconcileAcceptedJobs(records, [
      { id: 'j1', status: 'running' },
      { id: 'j2', status: 'completed' },
    ]);
    expect(result).toMatchObject({
      submitted: 5,
      accepted: 4,
      distinctJobIds: 3,
      found: 2,
      unaccepted: ['k4'],
      missing: ['j5'],
      notTerminal: [{ id: 'j1', status: 'running' }],
      sharedJobIds: ['j2'],
    });
  });
});
