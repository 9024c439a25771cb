/**
 * Typed, checked option values out of `parseArgs`'s loose record. Only the shape is checked
 * here (a number is a number, `k=v` has a key); what values the api accepts stays the api's
 * call, so the CLI never refuses something a newer api would take.
 */
import type { OptionValues } from './command.types.mts';
import { UsageError } from './cli.errors.mts';

export function stringOption(values: OptionValues, name: string): string | undefined {
  const value = values[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.length === 0) throw new UsageError(`--${name} needs a value`);
  return value;
}

export function flagOption(values: OptionValues, name: string): boolean {
  return values[name] === true;
}

/** A whole number ≥ 1. */
export function positiveIntOption(values: OptionValues, name: string): number | undefined {
  const text = stringOption(values, name);
  if (text === undefined) return undefined;
  if (!/^[0-9]+$/.test(text) || Number(text) < 1 || !Number.isSafeInteger(Number(text))) {
    throw new UsageError(`--${name} must be a whole number of at least 1, not "${text}"`);
  }
  return Number(text);
}

/** `720p,360p` → `['720p', '360p']`. */
export function listOption(values: OptionValues, name: string): string[] | undefined {
  const text = stringOption(values, name);
  if (text === undefined) return undefined;
  const items = text.split(',').map((item) => item.trim());
  if (items.some((item) => item.length === 0)) throw new UsageError(`--${name} takes a comma-separated list without empty items, not "${text}"`);
  return items;
}

/** Repeated `--name k=v` → `{ k: 'v' }`; the value may contain `=`, a key may appear once. */
export function keyValueOption(values: OptionValues, name: string): Record<string, string> | undefined {
  const raw = values[name];
  if (raw === undefined) return undefined;
  const pairs: Record<string, string> = {};
  for (const item of Array.isArray(raw) ? raw : [raw]) {
    const text = String(item);
    const equals = text.indexOf('=');
    if (equals <= 0) throw new UsageError(`--${name} takes key=value, not "${text}"`);
    const key = text.slice(0, equals);
    if (Object.hasOwn(pairs, key)) throw new UsageError(`--${name} ${key} given twice`);
    pairs[key] = text.slice(equals + 1);
  }
  return pairs;
}

/** An absolute http(s) URL. */
export function httpUrlOption(values: OptionValues, name: string): string | undefined {
  const text = stringOption(values, name);
  if (text === undefined) return undefined;
  if (!isHttpUrl(text)) throw new UsageError(`--${name} must be an http or https URL, not "${text}"`);
  return text;
}

export function isHttpUrl(text: string): boolean {
  const url = URL.parse(text);
  return url !== null && (url.protocol === 'http:' || url.protocol === 'https:');
}
