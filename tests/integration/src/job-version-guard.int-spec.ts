import { uuidv7 } from '@longhaul/persistence';
import { simulatedJob } from './job-waits';
import { testEnv } from './test-env';

const env = testEnv();

afterAll(() => env.db.close());

// The api's transition statement updates a job row only at the version the saga read under its
// lock, and calls api.job_version_conflict when that update changed nothing, so a stale version
// fails the statement (and with it the transaction) in Postgres rather than in the service.
describe('the job version guard of a transition statement', () => {
  it('fails with LH409 naming the version the job has, or LH404 for a job that does not exist', async () => {
    const { body } = await env.api.submitJob(simulatedJob({}));
    await env.api.waitForStatus(body.id, 'completed');
    const [job] = await env.db.rows<{ version: number }>(`SELECT version FROM api.jobs WHERE id = $1`, [body.id]);
    expect(job!.version).toBeGreaterThan(1);

    await expect(env.db.rows(`SELECT api.job_version_conflict($1, $2, 'status running not written')`, [body.id, job!.version - 1])).rejects.toMatchObject({
      code: 'LH409',
      message: `job ${body.id} is at version ${job!.version}, not ${job!.version - 1}: status running not written`,
    });
    const missing = uuidv7();
    await expect(env.db.rows(`SELECT api.job_version_conflict($1, 0, 'step transcode to running not written')`, [missing])).rejects.toMatchObject({
      code: 'LH404',
      message: `job ${missing} does not exist: step transcode to running not written`,
    });
  });

});
