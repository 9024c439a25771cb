/**
 * Fills `${NAME}` placeholders in a checked-in template (properties, YAML).
 *
 * Only names given in `values` are replaced; any other `${...}` stays as is,
 * so Kafka config-provider references such as `${env:VAR}` survive. A listed
 * name that the template does not use is fine; a `${LONGHAUL_*}` left unfilled
 * is a bug in the template or the caller and fails loudly.
 */
import { readFileSync } from 'node:fs';

export function renderTemplate(templateFile: string, values: Readonly<Record<string, string | number>>): string {
  const text = readFileSync(templateFile, 'utf8').replace(/\$\{([A-Z0-9_]+)\}/g, (whole, name: string) =>
    name in values ? String(values[name]) : whole,
  );
  const missing = /\$\{(LONGHAUL_[A-Z0-9_]+)\}/.exec(text);
  if (missing) throw new Error(`${templateFile}: no value for \${${missing[1]}}`);
  return text;
}
