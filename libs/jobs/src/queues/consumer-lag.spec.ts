import { LANE_CONSUMERS } from './consumer-lag';

describe('lane consumers', () => {
  it("reads each lane's own worker groups", () => {
    expect(LANE_CONSUMERS.fast).toEqual([
      { groupId: 'longhaul.transcoder.fast', topic: 'transcode.requests.fast' },
      { groupId: 'longhaul.thumbnailer', topic: 'thumbnail.requests' },
    ]);
    expect(LANE_CONSUMERS.slow).toEqual([{ groupId: 'longhaul.transcoder.slow', topic: 'transcode.requests.slow' }]);
  });
});
