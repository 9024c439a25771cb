import { Topics, type Lane } from '@longhaul/contracts';

/** One consumer group reading one topic. */
export interface LaneConsumer {
  groupId: string;
  topic: string;
}

/**
 * The consumer groups whose lag counts against each lane. The fast lane's work is read by the
 * fast transcoders and by the thumbnailer; the slow lane's by the slow transcoders. The group
 * ids are the workers' own (`longhaul.transcoder.<lane>`, `longhaul.thumbnailer`).
 */
export const LANE_CONSUMERS: Readonly<Record<Lane, readonly LaneConsumer[]>> = {
  fast: [
    { groupId: 'longhaul.transcoder.fast', topic: Topics.transcodeRequestsFast },
    { groupId: 'longhaul.thumbnailer', topic: Topics.thumbnailRequests },
  ],
  slow: [{ groupId: 'longhaul.transcoder.slow', topic: Topics.transcodeRequestsSlow }],
};
