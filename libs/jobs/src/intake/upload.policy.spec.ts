import { announcedLength, uploadFilename, uploadMediaType } from './upload.policy';

describe('uploadMediaType', () => {
  it.each([
    ['video/mp4', 'video/mp4'],
    ['Video/QuickTime; codecs="avc1"', 'video/quicktime'],
    ['video/x-matroska', 'video/x-matroska'],
    ['application/octet-stream', 'application/octet-stream'],
    ['application/json', null],
    ['audio/mp4', null],
    ['video/', null],
    ['text/plain', null],
    [undefined, null],
  ])('%s → %s', (header, expected) => {
    expect(uploadMediaType(header)).toBe(expected);
  });
});

describe('uploadFilename', () => {
  it.each([
    ['attachment; filename="clip.mp4"', 'clip.mp4'],
    ['attachment; filename=clip.mp4', 'clip.mp4'],
    ['attachment; filename="my \\"best\\" clip.mp4"', 'my "best" clip.mp4'],
    ["attachment; filename=\"fallback.mp4\"; filename*=UTF-8''cl%C3%ADp%20one.mp4", 'clíp one.mp4'],
    ['attachment; filename="../../etc/passwd"', 'passwd'],
    ['attachment; filename="C:\\\\videos\\\\clip.mp4"', 'clip.mp4'],
    ['attachment; filename="bad\u0001name.mp4"', 'badname.mp4'],
    ['attachment; filename=".."', null],
    ['attachment; filename=""', null],
    ['attachment', null],
    [undefined, null],
  ])('%s → %s', (header, expected) => {
    expect(uploadFilename(header)).toBe(expected);
  });

  it('keeps at most 255 characters', () => {
    expect(uploadFilename(`attachment; filename="${'a'.repeat(300)}.mp4"`)).toHaveLength(255);
  });
});

describe('announcedLength', () => {
  it.each([
    ['1024', 1024],
    [' 0 ', 0],
    ['-1', null],
    ['12abc', null],
    [undefined, null],
  ])('%s → %s', (header, expected) => {
    expect(announcedLength(header)).toBe(expected);
  });
});
