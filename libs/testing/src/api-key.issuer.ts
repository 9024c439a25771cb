import { execFile } from 'node:child_process';
import { compiledEntry, ensureServicesBuilt } from './service.build';
import { workspaceRoot } from './stack.harness';

/** What an API key may do (the api's scopes; they do not imply each other). */
export type ApiKeyScope = 'read' | 'write' | 'admin';

/** A key as `keys create --json` prints it. `key` is the secret: shown once, never logged. */
export interface IssuedApiKey {
  id: string;
  tenantId: string;
  tenant: string;
  /** The public part of the key (`lh_<prefix>_…`): safe to print, names the key. */
  prefix: string;
  scopes: ApiKeyScope[];
  /** Requests per rate-limit window (a minute by default), or null for the api's default. */
  rateLimit: number | null;
  /** When the key stops working; null: when it is revoked. */
  expiresAt: string | null;
  /** `lh_<prefix>_<secret>`: what `Authorization: Bearer` carries. */
  key: string;
}

/** Options of {@link issueApiKey}. */
export interface IssueApiKeyOptions {
  /** The database the api uses: the key is a row there, so every api on it accepts the key. */
  databaseUrl: string;
  /** The tenant's name; the keys command creates the tenant if it does not exist. */
  tenant: string;
  /** @defaultValue the keys command's default (`read`, `write`) */
  scopes?: ApiKeyScope[];
  /** A note on what the key is for, shown by `keys list`. */
  name?: string;
  /** Requests per rate-limit window (a minute by default). @defaultValue the api's default */
  rateLimit?: number;
  /** How long the key works, as `keys create --expires-in` takes it (`30m`, `12h`, `90d`). @defaultValue until revoked */
  expiresIn?: string;
}

/** Options of {@link runKeysCommand}. */
export interface KeysCommandOptions {
  databaseUrl: string;
  /** The script to run. @defaultValue the compiled keys command, `dist/apps/api/src/keys.js` (built first) */
  entry?: string;
  /** @defaultValue 60000 */
  timeoutMs?: number;
}

/** How the keys command ended. */
export interface KeysCommandRun {
  stdout: string;
  stderr: string;
}

/**
 * Runs the api's keys command (`node dist/apps/api/src/keys.js <args>`) as a child process with
 * `DATABASE_URL` set, the way an operator runs `npm run keys`. It applies the api's pending
 * migrations first, so it works before any api has started. Throws with the command's stderr
 * when it exits non-zero.
 */
export function runKeysCommand(args: readonly string[], options: KeysCommandOptions): Promise<KeysCommandRun> {
  let entry = options.entry;
  if (!entry) {
    ensureServicesBuilt();
    entry = compiledEntry('api', 'keys');
  }
  const command = `keys ${args[0] ?? ''}`.trim();
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--enable-source-maps', entry, ...args],
      { cwd: workspaceRoot(), env: { ...process.env, DATABASE_URL: options.databaseUrl }, timeout: options.timeoutMs ?? 60_000, maxBuffer: 4 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (!error) return resolve({ stdout, stderr });
        const exit = (error as { code?: unknown }).code ?? (error as { signal?: unknown }).signal ?? 'unknown';
        reject(new Error(`${command} failed (exit ${String(exit)}): ${stderr.trim() || error.message}`));
      },
    );
  });
}

/** Issues an API key through the keys command (`keys create --json`) and returns it. */
export async function issueApiKey(options: IssueApiKeyOptions & Omit<KeysCommandOptions, 'databaseUrl'>): Promise<IssuedApiKey> {
  const args = ['create', '--tenant', options.tenant, '--json'];
  if (options.scopes) args.push('--scopes', options.scopes.join(','));
  if (options.name) args.push('--name', options.name);
  if (options.rateLimit !== undefined) args.push('--rate-limit', String(options.rateLimit));
  if (options.expiresIn) args.push('--expires-in', options.expiresIn);
  const { stdout } = await runKeysCommand(args, options);
  return parseIssuedApiKey(stdout);
}

/** Revokes a key by its id or its prefix (`keys revoke`); the api refuses it from then on. */
export async function revokeApiKey(databaseUrl: string, idOrPrefix: string, options: Omit<KeysCommandOptions, 'databaseUrl'> = {}): Promise<void> {
  await runKeysCommand(['revoke', idOrPrefix], { ...options, databaseUrl });
}

/**
 * The key in the output of `keys create --json`. The document is normally all there is; should
 * anything be printed before it (a log line of the migrations), the last JSON object that looks
 * like a key is taken. The output is never quoted in the error: it holds a secret.
 */
export function parseIssuedApiKey(stdout: string): IssuedApiKey {
  const candidates = [stdout, ...jsonTails(stdout)];
  for (const text of candidates) {
    const parsed = tryParse(text);
    if (isIssuedApiKey(parsed)) return parsed;
  }
  throw new Error(`keys create printed no key document (${stdout.length} characters of output)`);
}

/** Every suffix of `text` that starts a line with `{`, from the last one back. */
function jsonTails(text: string): string[] {
  const tails: string[] = [];
  for (let at = text.lastIndexOf('\n{'); at >= 0; at = at === 0 ? -1 : text.lastIndexOf('\n{', at - 1)) tails.push(text.slice(at + 1));
  return tails;
}

function tryParse(text: string): unknown {
  try {
    return JSON.parse(text.trim());
  } catch {
    return undefined;
  }
}

function isIssuedApiKey(value: unknown): value is IssuedApiKey {
  if (!value || typeof value !== 'object') return false;
  const candidate = value as Record<string, unknown>;
  return (
    typeof candidate['key'] === 'string' &&
    candidate['key'].startsWith('lh_') &&
    typeof candidate['id'] === 'string' &&
    typeof candidate['prefix'] === 'string' &&
    Array.isArray(candidate['scopes'])
  );
}

/** Options of {@link apiKeyForTool}. */
export interface ToolApiKeyOptions extends Omit<KeysCommandOptions, 'databaseUrl'> {
  /** The key the tool was given (its `LONGHAUL_API_KEY`); empty or undefined when none. */
  given: string | undefined;
  databaseUrl: string;
  /** The tenant to issue a key for when none was given. */
  tenant: string;
  /** @defaultValue the keys command's default (`read`, `write`) */
  scopes?: ApiKeyScope[];
  /** Told what happened, by the key's prefix only. */
  say: (line: string) => void;
}

/**
 * The API key a tool (the demo, the benchmarks) sends: the one it was given, else one issued for
 * `tenant` through the keys command. Only the new key's prefix is announced, never the key.
 */
export async function apiKeyForTool(options: ToolApiKeyOptions): Promise<string> {
  if (options.given) return options.given;
  const issued = await issueApiKey({
    databaseUrl: options.databaseUrl,
    tenant: options.tenant,
    scopes: options.scopes,
    name: `${options.tenant} run`,
    entry: options.entry,
    timeoutMs: options.timeoutMs,
  });
  options.say(
    `LONGHAUL_API_KEY is not set: issued an API key for tenant "${issued.tenant}", prefix ${issued.prefix} ` +
      `(the key itself is not shown; revoke it with: npm run keys -- revoke ${issued.prefix})`,
  );
  return issued.key;
}
