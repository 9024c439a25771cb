import { hashForPath, jobIdIn, parseRoute, routeHash, sectionOf, type Route } from './route.policy.js';

const JOB_ID = '0190f4c2-7a1b-7c3d-8e4f-a1b2c3d4e5f6';

describe('parseRoute', () => {
  it.each([
    ['', { page: 'jobs', status: null, type: null, created: null }],
    ['#', { page: 'jobs', status: null, type: null, created: null }],
    ['#/', { page: 'jobs', status: null, type: null, created: null }],
    ['#/jobs', { page: 'jobs', status: null, type: null, created: null }],
    ['#/jobs?status=failed&type=video.process', { page: 'jobs', status: 'failed', type: 'video.process', created: null }],
    ['#/jobs?status=nonsense&type=%20', { page: 'jobs', status: null, type: null, created: null }],
    ['#/jobs?created=day', { page: 'jobs', status: null, type: null, created: 'day' }],
    // Only the named windows: anything else (or an inherited property name) lists every job.
    ['#/jobs?created=month', { page: 'jobs', status: null, type: null, created: null }],
    ['#/jobs?created=toString', { page: 'jobs', status: null, type: null, created: null }],
    [`#/jobs/${JOB_ID}`, { page: 'job', id: JOB_ID }],
    [`#/jobs/${JOB_ID.toUpperCase()}/`, { page: 'job', id: JOB_ID }],
    ['#/lanes', { page: 'lanes' }],
    ['#/dead-letters', { page: 'dead-letters' }],
    ['#/dlq-messages', { page: 'dlq-messages', topic: null, errorCode: null, pending: false }],
    ['#/dlq-messages?topic=job.events&errorCode=handler_failed&pending=true', { page: 'dlq-messages', topic: 'job.events', errorCode: 'handler_failed', pending: true }],
    // What the api would refuse with a 400 is dropped, so the list still shows.
    ['#/dlq-messages?topic=no%20such/topic&errorCode=Handler-Failed&pending=yes', { page: 'dlq-messages', topic: null, errorCode: null, pending: false }],
    ['#/jobs/not-a-uuid', { page: 'not-found', path: '/jobs/not-a-uuid' }],
    ['#/elsewhere', { page: 'not-found', path: '/elsewhere' }],
  ])('%s', (hash, route) => {
    expect(parseRoute(hash)).toEqual(route);
  });
});

describe('routeHash', () => {
  it.each<Route>([
    { page: 'jobs', status: null, type: null, created: null },
    { page: 'jobs', status: 'running', type: 'video.process', created: null },
    { page: 'jobs', status: null, type: null, created: 'week' },
    { page: 'job', id: JOB_ID },
    { page: 'lanes' },
    { page: 'dead-letters' },
    { page: 'dlq-messages', topic: null, errorCode: null, pending: false },
    { page: 'dlq-messages', topic: 'job.lifecycle.dlq', errorCode: 'message_unparseable', pending: true },
  ])('round-trips %j', (route) => {
    expect(parseRoute(routeHash(route))).toEqual(route);
  });

  it('keeps filters readable', () => {
    expect(routeHash({ page: 'jobs', status: 'failed', type: null, created: null })).toBe('#/jobs?status=failed');
    expect(routeHash({ page: 'jobs', status: null, type: null, created: null })).toBe('#/jobs');
    expect(routeHash({ page: 'dlq-messages', topic: null, errorCode: null, pending: true })).toBe('#/dlq-messages?pending=true');
    expect(routeHash({ page: 'dlq-messages', topic: null, errorCode: null, pending: false })).toBe('#/dlq-messages');
    // The lanes page links a dead-letter topic to its messages.
    expect(routeHash({ page: 'dlq-messages', topic: 'job.events.dlq', errorCode: null, pending: false })).toBe('#/dlq-messages?topic=job.events.dlq');
  });
});

describe('hashForPath', () => {
  it('turns a path below the base into the page it names', () => {
    expect(hashForPath(`/dashboard/jobs/${JOB_ID}`, '/dashboard/')).toBe(`#/jobs/${JOB_ID}`);
    expect(hashForPath('/dashboard/lanes/', '/dashboard/')).toBe('#/lanes');
  });

  it('leaves the base, index.html and other paths alone', () => {
    expect(hashForPath('/dashboard/', '/dashboard/')).toBeNull();
    expect(hashForPath('/dashboard/index.html', '/dashboard/')).toBeNull();
    expect(hashForPath('/v1/jobs', '/dashboard/')).toBeNull();
  });
});

describe('sectionOf', () => {
  it('marks a job page as part of the jobs', () => {
    expect(sectionOf({ page: 'job', id: JOB_ID })).toBe('jobs');
    expect(sectionOf({ page: 'dead-letters' })).toBe('dead-letters');
    expect(sectionOf({ page: 'dlq-messages', topic: null, errorCode: null, pending: false })).toBe('dlq-messages');
    expect(sectionOf({ page: 'not-found', path: '/x' })).toBeNull();
  });
});

describe('jobIdIn', () => {
  it('finds the id in a bare id, a Location and a dashboard link, lower-cased', () => {
    expect(jobIdIn(JOB_ID)).toBe(JOB_ID);
    expect(jobIdIn(`  ${JOB_ID.toUpperCase()} `)).toBe(JOB_ID);
    expect(jobIdIn(`/v1/jobs/${JOB_ID}`)).toBe(JOB_ID);
    expect(jobIdIn(`http://127.0.0.1:3000/dashboard/#/jobs/${JOB_ID}?x=1`)).toBe(JOB_ID);
  });

  it('finds none in text without a whole id', () => {
    for (const text of ['', '   ', 'video.process', JOB_ID.slice(0, 30), JOB_ID.replace(/-/g, ''), JOB_ID.replace('a', 'g').replace('7a1b', '7g1b')]) {
      expect([text, jobIdIn(text)]).toEqual([text, null]);
    }
  });
});
