import { spriteLayout } from './sprite-layout.policy';
import { formatVttTimestamp, renderSpriteVtt } from './sprite-vtt.format';

/** `[startMs, endMs]` of every cue of a rendered index. */
function cueTimes(vtt: string): Array<[number, number]> {
  const ms = (s: string) => {
    const [h, m, rest] = s.split(':');
    return Number(h) * 3_600_000 + Number(m) * 60_000 + Math.round(Number(rest) * 1000);
  };
  return [...vtt.matchAll(/^(\d{2,}:\d{2}:\d{2}\.\d{3}) --> (\d{2,}:\d{2}:\d{2}\.\d{3})$/gm)].map((m) => [ms(m[1]), ms(m[2])]);
}

describe('formatVttTimestamp', () => {
  it('writes hours, minutes, seconds and milliseconds', () => {
    expect(formatVttTimestamp(0)).toBe('00:00:00.000');
    expect(formatVttTimestamp(2000)).toBe('00:00:02.000');
    expect(formatVttTimestamp(61_005)).toBe('00:01:01.005');
    expect(formatVttTimestamp(3_600_000 + 59 * 60_000 + 59_999)).toBe('01:59:59.999');
    expect(formatVttTimestamp(100 * 3_600_000)).toBe('100:00:00.000');
  });

  it('refuses fractions and negatives rather than writing a bad cue', () => {
    expect(() => formatVttTimestamp(1.5)).toThrow(RangeError);
    expect(() => formatVttTimestamp(-1)).toThrow(RangeError);
  });
});

describe('renderSpriteVtt', () => {
  it('writes the header and one cue per tile pointing into the sheet', () => {
    expect(renderSpriteVtt(spriteLayout(5, 2), 'sprite.jpg')).toBe(
      [
        'WEBVTT',
        '',
        '00:00:00.000 --> 00:00:02.000',
        'sprite.jpg#xywh=0,0,160,90',
        '',
        '00:00:02.000 --> 00:00:04.000',
        'sprite.jpg#xywh=160,0,160,90',
        '',
        '00:00:04.000 --> 00:00:05.000',
        'sprite.jpg#xywh=320,0,160,90',
        '',
      ].join('\n'),
    );
  });

  it.each([6, 7.25, 59.999, 45, 3 * 3600 + 0.123])('covers all of a %s s video back to back', (duration) => {
    const cues = cueTimes(renderSpriteVtt(spriteLayout(duration, 2), 'sprite.jpg'));
    expect(cues[0][0]).toBe(0);
    for (let i = 1; i < cues.length; i++) expect(cues[i][0]).toBe(cues[i - 1][1]);
    expect(cues.at(-1)![1]).toBe(Math.round(duration * 1000));
  });

  it('places tiles of later rows further down the sheet', () => {
    const vtt = renderSpriteVtt(spriteLayout(25, 2), 'sprite.jpg');
    expect(vtt).toContain('00:00:20.000 --> 00:00:22.000\nsprite.jpg#xywh=0,90,160,90');
    expect(vtt).toContain('00:00:24.000 --> 00:00:25.000\nsprite.jpg#xywh=320,90,160,90');
  });
});
