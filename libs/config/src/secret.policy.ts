/** Fewest bytes a production secret may have: 256 bits, the size of the HMAC-SHA256 keys derived from it. */
export const MIN_SECRET_BYTES = 32;

/**
 * A secret variable whose schema falls back to a published development value, so that
 * `nx serve` and the tests run without configuration. Anyone can read that value in this
 * repository, so a deployment must never run with it.
 */
export interface SecretVariable {
  /** The environment variable, as its schema names it (`WEBHOOK_SIGNING_KEY`). */
  readonly name: string;
  /** The published value its schema falls back to. */
  readonly developmentDefault: string;
  /** Fewest bytes (UTF-8) accepted in production. @defaultValue {@link MIN_SECRET_BYTES} */
  readonly minBytes?: number;
  /** What to log while a service runs with the development value. @defaultValue a sentence naming the variable */
  readonly warning?: string;
}

/** True when `NODE_ENV` says production, the one mode that refuses development secrets. */
export function isProduction(env: Readonly<Record<string, unknown>>): boolean {
  return env['NODE_ENV'] === 'production';
}

/**
 * Why each of `secrets` may not be used in production, one line per problem, each starting with
 * the variable's name: unset, the development value, or shorter than its minimum. Empty when
 * all are fit. Pure: reads the validated config it is given.
 */
export function productionSecretProblems(config: Readonly<Record<string, unknown>>, secrets: readonly SecretVariable[]): string[] {
  const problems: string[] = [];
  for (const secret of secrets) {
    const value = config[secret.name];
    const minBytes = secret.minBytes ?? MIN_SECRET_BYTES;
    if (typeof value !== 'string' || value === '') problems.push(`${secret.name}: not set; NODE_ENV=production needs a secret of its own`);
    else if (value === secret.developmentDefault) problems.push(`${secret.name}: the published development value; NODE_ENV=production needs a secret of its own`);
    else if (Buffer.byteLength(value, 'utf8') < minBytes) problems.push(`${secret.name}: shorter than ${minBytes} bytes`);
  }
  return problems;
}

/** The warnings to log at start for each of `secrets` that still has its development value (any mode but production). */
export function developmentSecretWarnings(config: Readonly<Record<string, unknown>>, secrets: readonly SecretVariable[]): string[] {
  return secrets
    .filter((secret) => config[secret.name] === secret.developmentDefault)
    .map(
      (secret) =>
        secret.warning ??
        `${secret.name} is the published development value: anyone can forge what it protects; set your own (NODE_ENV=production refuses to start with it)`,
    );
}
