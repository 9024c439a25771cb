import { z } from 'zod';

/** One exact browser origin: `scheme://host[:port]`, as a browser sends it in `Origin`. */
const exactOrigin = z.string().superRefine((value, ctx) => {
  let origin: string | undefined;
  try {
    const url = new URL(value);
    if (url.protocol === 'http:' || url.protocol === 'https:') origin = url.origin;
  } catch {
    // Not a URL: reported below.
  }
  // `URL.origin` drops a path, a trailing slash and a default port and lowers the host: the value must already be that.
  if (origin !== value) ctx.addIssue({ code: 'custom', message: `"${value}" is not an exact origin like https://app.example.com (http or https, host, optional port; no path, no wildcard)` });
});

/** Cross-origin settings of a service that browsers on other origins may call (the api). */
export const CorsEnvSchema = z.object({
  /**
   * Comma-separated exact origins whose pages may call the API (`https://app.example.com,
   * http://127.0.0.1:5173`). Empty: no cross-origin access, no CORS header at all.
   * @defaultValue empty
   */
  CORS_ORIGINS: z
    .string()
    .default('')
    .transform((list) => list.split(',').map((origin) => origin.trim()).filter(Boolean))
    .pipe(z.array(exactOrigin)),
});
export type CorsEnv = z.infer<typeof CorsEnvSchema>;
