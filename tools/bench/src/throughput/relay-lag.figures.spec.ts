import { lagSeries } from './relay-lag.figures';

describe('lagSeries', () => {
  it('measures each seen row from its send (upper bound) and from its answer (lower bound), and splits at the record timestamp', () => {
    const series = lagSeries([
      { key: 'a', sentAt: 1000, ackedAt: 1002.5, arrival: { at: 1030, recordTimestamp: 1010 } },
      { key: 'b', sentAt: 2000, ackedAt: 2001, arrival: { at: 2051, recordTimestamp: 2004 } },
    ]);
    expect(series.fromSendMs).toEqual([30, 51]);
    expect(series.fromAckMs).toEqual([27.5, 50]);
    expect(series.toConnectorMs).toEqual([7.5, 3]);
    expect(series.connectorToReadableMs).toEqual([20, 47]);
    expect(series.seen).toBe(2);
    expect(series.missing).toBe(0);
  });

  it('counts rows never seen as missing rather than as a latency', () => {
    const series = lagSeries([{ key: 'a', sentAt: 0, ackedAt: 1 }, { key: 'b', sentAt: 0, ackedAt: 1, arrival: { at: 10, recordTimestamp: 5 } }]);
    expect(series.missing).toBe(1);
    expect(series.fromSendMs).toEqual([10]);
  });
});
