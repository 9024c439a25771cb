import { ApiError, describeError, isScopeRefusal, needsAdminText } from './api.client.js';

const refusal = new ApiError(403, 'insufficient_scope', "403 insufficient_scope: this API key lacks the 'admin' scope");

describe('isScopeRefusal', () => {
  it("takes the api's 403 insufficient_scope: a good key without the route's scope", () => {
    expect(isScopeRefusal(refusal)).toBe(true);
  });

  it('leaves any other refusal or failure to be shown as an error', () => {
    expect(isScopeRefusal(new ApiError(403, null, '403 Forbidden'))).toBe(false);
    expect(isScopeRefusal(new ApiError(401, 'unauthenticated', '401 unauthenticated: no API key'))).toBe(false);
    expect(isScopeRefusal(new ApiError(409, 'insufficient_scope', '409'))).toBe(false);
    expect(isScopeRefusal(new TypeError('Failed to fetch'))).toBe(false);
    expect(isScopeRefusal(null)).toBe(false);
  });
});

describe('needsAdminText', () => {
  it("says what needs the admin scope, the api's answer, and what an operator's key would do", () => {
    expect(needsAdminText('This page', refusal, 'see the lanes')).toBe(
      "This page needs an API key with the admin scope; the key in use does not have it (403 insufficient_scope: this API key lacks the 'admin' scope). Sign out and enter an operator's key to see the lanes.",
    );
    expect(needsAdminText('Replaying', refusal, 'replay it')).toMatch(/^Replaying needs an API key with the admin scope; .* to replay it\.$/);
  });
});

describe('describeError', () => {
  it("gives the api's answer, or says the api did not answer", () => {
    expect(describeError(refusal)).toBe(refusal.message);
    expect(describeError(new TypeError('Failed to fetch'))).toBe('The api did not answer: Failed to fetch');
  });
});
