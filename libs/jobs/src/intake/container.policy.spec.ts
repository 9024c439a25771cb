import { isAcceptedFormat, sniffContainer } from './container.policy';

const bytes = (...parts: Array<string | number[]>) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))));

const tsPackets = (packet: number, offset = 0) => {
  const b = Buffer.alloc(packet * 3);
  for (let i = 0; i < 3; i++) b[offset + i * packet] = 0x47;
  return b;
};

describe('sniffContainer', () => {
  it.each<[string, Buffer, string]>([
    ['MP4', bytes([0, 0, 0, 0x20], 'ftypisom', [0, 0, 2, 0]), 'iso-bmff'],
    ['MOV starting with moov', bytes([0, 0, 0, 8], 'moov'), 'iso-bmff'],
    ['MOV starting with wide', bytes([0, 0, 0, 8], 'wide'), 'iso-bmff'],
    ['Matroska/WebM', bytes([0x1a, 0x45, 0xdf, 0xa3, 0x9f]), 'matroska'],
    ['AVI', bytes('RIFF', [1, 2, 3, 4], 'AVI LIST'), 'avi'],
    ['WAV', bytes('RIFF', [1, 2, 3, 4], 'WAVEfmt '), 'wav'],
    ['MPEG-TS', tsPackets(188), 'mpegts'],
    ['M2TS', tsPackets(192, 4), 'mpegts'],
    ['MPEG-PS', bytes([0, 0, 1, 0xba, 0x44]), 'mpeg-ps'],
    ['H.264 Annex B', bytes([0, 0, 0, 1, 0x67]), 'annex-b'],
    ['FLV', bytes('FLV', [1, 5]), 'flv'],
    ['Ogg', bytes('OggS', [0]), 'ogg'],
    ['ASF', bytes([0x30, 0x26, 0xb2, 0x75, 0x8e, 0x66, 0xcf, 0x11]), 'asf'],
    ['MXF', bytes([0x06, 0x0e, 0x2b, 0x34, 0x02, 0x05, 0x01, 0x01]), 'mxf'],
    ['IVF', bytes('DKIF', [0, 0]), 'ivf'],
    ['Y4M', bytes('YUV4MPEG2 W320'), 'y4m'],
    ['FLAC', bytes('fLaC'), 'flac'],
    ['MP3 with ID3', bytes('ID3', [4, 0]), 'mpeg-audio'],
    ['MP3 frame', bytes([0xff, 0xfb, 0x90]), 'mpeg-audio'],
    ['AAC ADTS', bytes([0xff, 0xf1, 0x50]), 'mpeg-audio'],
  ])('accepts %s', (_name, head, family) => {
    expect(sniffContainer(head)).toEqual({ verdict: 'container', family });
  });

  it.each<[string, Buffer]>([
    ['an HLS playlist', bytes('#EXTM3U\n#EXT-X-VERSION:3\n#EXTINF:10,\n/etc/passwd\n')],
    ['an HLS playlist with a BOM and blank lines', bytes([0xef, 0xbb, 0xbf], '\r\n  #EXTM3U\n')],
    ['an HLS playlist in lower case', bytes('#extm3u\n')],
    ['an M3U list without its header', bytes('#EXTINF:-1,x\nfile:///etc/passwd\n')],
    ['an ffconcat list', bytes("ffconcat version 1.0\nfile '/etc/passwd'\n")],
    ['a DASH manifest', bytes('<?xml version="1.0"?>\n<MPD xmlns="urn:mpeg:dash:schema:mpd:2011">')],
    ['a DASH marker behind a RIFF signature', bytes('RIFFAAAAAVI <MPD profiles="urn:mpeg:dash:profile:isoff-on-demand:2011">')],
    ['an IMF composition playlist', bytes('<?xml version="1.0"?><CompositionPlaylist>')],
    ['an SDP file', bytes('v=0\no=- 0 0 IN IP4 127.0.0.1\nc=IN IP4 127.0.0.1\nm=video 5004 RTP/AVP 96\n')],
    ['a PLS playlist', bytes('[playlist]\nFile1=/etc/passwd\n')],
  ])('refuses %s unread', (_name, head) => {
    expect(sniffContainer(head)).toMatchObject({ verdict: 'refused' });
  });

  it.each<[string, Buffer]>([
    ['plain text', bytes('hello, this is not a video\n')],
    ['JSON', bytes('{"type":"video"}')],
    ['a PNG image', bytes([0x89], 'PNG\r\n', [0x1a, 0x0a])],
    ['a ZIP archive', bytes('PK', [3, 4])],
    ['a lone TS sync byte', bytes([0x47, 0x40, 0x00])],
    ['nothing', Buffer.alloc(0)],
  ])('does not recognise %s', (_name, head) => {
    expect(sniffContainer(head)).toEqual({ verdict: 'unknown' });
  });
});

describe('isAcceptedFormat', () => {
  it.each([
    ['mov,mp4,m4a,3gp,3g2,mj2', true],
    ['matroska,webm', true],
    ['mpegts', true],
    ['avi', true],
    ['hls', false],
    ['concat', false],
    ['dash', false],
    ['sdp', false],
    ['image2', false],
    ['tty', false],
  ])('%s → %s', (formatName, expected) => {
    expect(isAcceptedFormat(formatName as string)).toBe(expected);
  });
});
