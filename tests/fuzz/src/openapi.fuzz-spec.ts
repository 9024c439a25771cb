import { join } from 'node:path';
import { workspaceRoot } from '@longhaul/testing';
import { runSchemathesis } from './schemathesis.runner';

const apiUrl = process.env['LONGHAUL_TEST_API_URL']!;
const apiKey = process.env['LONGHAUL_TEST_API_KEY']!;

/**
 * What every answer must satisfy: no 5xx; a method the document does not list for a path (`PUT`,
 * `QUERY`, `TRACE`…) answered `405`; and status, media type, headers and body as the document says.
 */
const CHECKS = ['not_a_server_error', 'unsupported_method', 'status_code_conformance', 'content_type_conformance', 'response_headers_conformance', 'response_schema_conformance'];

/** Test cases per operation and phase: about a minute or two on two cores for the whole api. */
const MAX_EXAMPLES = 50;

/*
 * Nothing is excluded. `GET /v1/jobs/{id}/events` streams until its job ends: schemathesis reads
 * an event stream until it closes or the request timeout (10 s) passes, and the jobs it submits
 * end within seconds in the simulated step mode, so following one (a link from the submit) does
 * not hang the run.
 */
describe('the api against its OpenAPI document', () => {
  it('answers every generated request (valid or not) without a server error, as documented', async () => {
    const result = await runSchemathesis({
      schemaUrl: `${apiUrl}/openapi.json`,
      apiKey,
      checks: CHECKS,
      maxExamples: MAX_EXAMPLES,
      hooksFile: join(__dirname, 'loopback-urls.hooks.py'),
      workDir: join(workspaceRoot(), 'tmp', 'fuzz'),
    });
    if (result.exitCode !== 0) {
      throw new Error(`schemathesis exited with ${result.exitCode}\n$ ${result.command}\n\n${result.output}`);
    }
    // What was tested (phases, links followed, warnings), for the log of a passing run too.
    console.log(result.output);
    expect(result.output).toMatch(/passed/);
  });
});
