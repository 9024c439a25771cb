import { ApiClient, DbProbe } from '@longhaul/testing';

/** What the media suite's global setup started, as each test file sees it. */
export function mediaEnv() {
  const need = (name: string): string => {
    const value = process.env[name];
    if (!value) throw new Error(`${name} is not set: run the media tests through their jest config`);
    return value;
  };
  return {
    /** The suite's api, sending the suite's API key on every request. */
    api: new ApiClient(need('LONGHAUL_TEST_API_URL'), need('LONGHAUL_TEST_API_KEY')),
    apiUrl: need('LONGHAUL_TEST_API_URL'),
    /** The API key the global setup issued (tenant `longhaul-test`, every scope). */
    apiKey: need('LONGHAUL_TEST_API_KEY'),
    db: new DbProbe(need('LONGHAUL_TEST_DATABASE_URL')),
    logDir: need('LONGHAUL_TEST_LOG_DIR'),
  };
}
