import { advanceRelayWatermark, NO_RELAY_WATERMARK, relaySlotProblem, type RelayObservation } from './outbox-prune.policy';

const at = (walLsn: number, xidHorizon: number): RelayObservation => ({ walLsn: BigInt(walLsn), xidHorizon: BigInt(xidHorizon) });

describe('relaySlotProblem', () => {
  it('trusts only an active slot that has confirmed a position', () => {
    expect(relaySlotProblem({ active: true, confirmedLsn: 10n })).toBeNull();
    expect(relaySlotProblem(null)).toBe('slot_missing');
    expect(relaySlotProblem({ active: false, confirmedLsn: 10n })).toBe('slot_inactive');
    expect(relaySlotProblem({ active: true, confirmedLsn: null })).toBe('slot_unconfirmed');
  });
});

describe('advanceRelayWatermark', () => {
  it('deletes nothing on the first pass: the first observation still waits for the relay', () => {
    const first = advanceRelayWatermark(NO_RELAY_WATERMARK, 1_000n, at(500, 7));
    expect(first).toEqual({ confirmed: null, pending: at(500, 7) });
  });

  it('confirms the pending observation once the slot reaches its position, and waits on the new one', () => {
    const waiting = { confirmed: null, pending: at(500, 7) };
    expect(advanceRelayWatermark(waiting, 500n, at(900, 9))).toEqual({ confirmed: at(500, 7), pending: at(900, 9) });
    expect(advanceRelayWatermark(waiting, 2_000n, at(900, 9))).toEqual({ confirmed: at(500, 7), pending: at(900, 9) });
  });

  it('keeps the pending observation while the relay is behind it, rather than chasing newer positions', () => {
    const waiting = { confirmed: at(100, 3), pending: at(500, 7) };
    expect(advanceRelayWatermark(waiting, 499n, at(900, 9))).toEqual(waiting);
  });

  it('keeps what it had when the slot cannot vouch for anything', () => {
    const waiting = { confirmed: at(100, 3), pending: at(500, 7) };
    expect(advanceRelayWatermark(waiting, null, at(900, 9))).toEqual(waiting);
  });

  it('never moves the confirmed horizon to an observation the relay has not reached', () => {
    let watermark = NO_RELAY_WATERMARK;
    const confirmedLsns = [0n, 50n, 150n, 150n, 400n];
    const observations = [at(100, 1), at(200, 2), at(300, 3), at(400, 4), at(500, 5)];
    confirmedLsns.forEach((confirmed, i) => {
      watermark = advanceRelayWatermark(watermark, confirmed, observations[i]!);
      if (watermark.confirmed) expect(watermark.confirmed.walLsn <= confirmed).toBe(true);
    });
    expect(watermark.confirmed).toEqual(at(300, 3));
  });
});
