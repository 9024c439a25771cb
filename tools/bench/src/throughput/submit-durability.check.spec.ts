import { durabilityVerdict, sumDurability, type DurabilityCheck } from './submit-durability.check';

const clean: DurabilityCheck = { accepted: 1000, acceptedIds: 1000, idsFound: 1000, rowsAdded: 1003, cutOff: 5, statuses: { completed: 1000 } };

describe('durabilityVerdict', () => {
  it('passes when every 202 is a row and the extra rows are requests cut off in flight', () => {
    expect(durabilityVerdict(clean)).toEqual({ passed: true, unanswered: 3, problems: [] });
    expect(durabilityVerdict({ ...clean, rowsAdded: 1000 }).passed).toBe(true);
  });

  it('fails when an accepted job is missing', () => {
    const verdict = durabilityVerdict({ ...clean, idsFound: 998, rowsAdded: 998 });
    expect(verdict.passed).toBe(false);
    expect(verdict.problems).toEqual(['2 accepted jobs are not in api.jobs', '2 fewer rows were added than jobs accepted']);
  });

  it('fails when rows appear that no request explains, or a 202 carried no id', () => {
    expect(durabilityVerdict({ ...clean, rowsAdded: 1010 }).problems).toEqual(['5 more rows were added than jobs accepted or cut off in flight']);
    expect(durabilityVerdict({ ...clean, acceptedIds: 999, idsFound: 999 }).problems).toEqual(['1 of the 202 answers carried no job id']);
  });
});

describe('sumDurability', () => {
  it('adds the runs up, statuses by status', () => {
    const other: DurabilityCheck = { accepted: 10, acceptedIds: 10, idsFound: 10, rowsAdded: 11, cutOff: 1, statuses: { pending: 10 } };
    expect(sumDurability([clean, other])).toEqual({ accepted: 1010, acceptedIds: 1010, idsFound: 1010, rowsAdded: 1014, cutOff: 6, statuses: { completed: 1000, pending: 10 } });
  });
});
