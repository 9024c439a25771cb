import { CorsEnvSchema } from './cors.config';
import { loadConfig } from './config.loader';

describe('CORS_ORIGINS', () => {
  const load = (value?: string) => loadConfig('api', CorsEnvSchema, { CORS_ORIGINS: value }).CORS_ORIGINS;

  it('is empty, so off, when unset or blank', () => {
    expect(load()).toEqual([]);
    expect(load('')).toEqual([]);
    expect(load(' , ')).toEqual([]);
  });

  it('takes a comma-separated list of exact origins', () => {
    expect(load('https://app.example.com, http://127.0.0.1:5173')).toEqual(['https://app.example.com', 'http://127.0.0.1:5173']);
  });

  it.each(['*', 'app.example.com', 'https://app.example.com/', 'https://app.example.com/path', 'https://APP.example.com', 'https://app.example.com:443', 'ftp://app.example.com', 'null'])(
    'refuses %s, naming the variable',
    (value) => {
      expect(() => load(value)).toThrow(/CORS_ORIGINS\.0: .*not an exact origin/);
    },
  );
});
