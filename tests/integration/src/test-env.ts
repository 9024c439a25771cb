import { ApiClient, DbProbe, KafkaProbe, MailpitClient } from '@longhaul/testing';

/** What the global setup started, as each test file sees it. */
export function testEnv() {
  const need = (name: string): string => {
    const value = process.env[name];
    if (!value) throw new Error(`${name} is not set: run the integration tests through their jest config`);
    return value;
  };
  return {
    /** The suite's api, sending the suite's API key on every request. */
    api: new ApiClient(need('LONGHAUL_TEST_API_URL'), need('LONGHAUL_TEST_API_KEY')),
    /** The API key the global setup issued (tenant `longhaul-test`, every scope); extra apis accept it too. */
    apiKey: need('LONGHAUL_TEST_API_KEY'),
    db: new DbProbe(need('LONGHAUL_TEST_DATABASE_URL')),
    kafka: new KafkaProbe(need('LONGHAUL_TEST_KAFKA_BROKERS')),
    databaseUrl: need('LONGHAUL_TEST_DATABASE_URL'),
    stackMode: need('LONGHAUL_TEST_STACK'),
    jaegerUrl: need('LONGHAUL_TEST_JAEGER_URL'),
    mail: new MailpitClient(need('LONGHAUL_TEST_MAILPIT_URL')),
    /** Base URL of each of the four services, by app: `api`, `transcoder`, `thumbnailer`, `notifier`. */
    get serviceUrls(): Record<string, string> {
      return JSON.parse(need('LONGHAUL_TEST_SERVICE_URLS')) as Record<string, string>;
    },
  };
}
