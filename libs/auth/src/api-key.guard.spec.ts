import { Controller, Delete, Get, Post, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { Public, ProblemError } from '@longhaul/platform';
import type { Logger } from '@longhaul/telemetry';
import { ApiKeyGuard } from './api-key.guard';
import type { ApiKeyUsageRecorder } from './api-key-usage.recorder';
import type { ApiKeyVerifier, Verification } from './api-key.verifier';
import type { AuthenticatedRequest, Principal, Scope } from './principal';
import { RequiresScope } from './scope.decorator';

@Controller('things')
class ThingsController {
  @Get() list(): string { return 'list'; }
  @Post() create(): string { return 'create'; }
  @Delete(':id') @RequiresScope('admin') remove(): string { return 'remove'; }
  @Public() @Get('open') open(): string { return 'open'; }
}

const principal = (scopes: Scope[]): Principal => ({ keyId: 'k1', keyPrefix: 'abc', tenantId: 't1', scopes: new Set(scopes) });

function context(handler: keyof ThingsController, request: Partial<AuthenticatedRequest>): ExecutionContext {
  return {
    getHandler: () => ThingsController.prototype[handler],
    getClass: () => ThingsController,
    switchToHttp: () => ({ getRequest: () => request }),
  } as unknown as ExecutionContext;
}

function guard(answer: Verification) {
  const verify = jest.fn(async () => answer);
  const logger = { info: jest.fn() } as unknown as Logger;
  const used = jest.fn();
  return { guard: new ApiKeyGuard(new Reflector(), { verify } as unknown as ApiKeyVerifier, { used } as unknown as ApiKeyUsageRecorder, logger), verify, logger, used };
}

const request = (method: string, authorization?: string): Partial<AuthenticatedRequest> =>
  ({ method, url: '/things?page=2', headers: authorization ? { authorization } : {} }) as Partial<AuthenticatedRequest>;

async function problemOf(promise: Promise<unknown>): Promise<{ status: number; code: string; headers: Record<string, string> }> {
  const error = await promise.then(() => null, (e: unknown) => e);
  if (!(error instanceof ProblemError)) throw new Error(`expected a problem, got ${String(error)}`);
  return { status: error.problem.status, code: error.problem.code, headers: error.headers };
}

describe('ApiKeyGuard', () => {
  it('lets a public route through without asking for a key', async () => {
    const { guard: g, verify, used } = guard({ ok: false, reason: 'unknown' });
    await expect(g.canActivate(context('open', request('GET')))).resolves.toBe(true);
    expect(verify).not.toHaveBeenCalled();
    expect(used).not.toHaveBeenCalled();
  });

  it('answers 401 with a Bearer challenge when the key is missing, not bearer, or refused', async () => {
    const { guard: g, used } = guard({ ok: false, reason: 'revoked', prefix: 'abc' });
    for (const authorization of [undefined, 'Basic dXNlcjpwYXNz', 'Bearer lh_abc_def']) {
      const problem = await problemOf(g.canActivate(context('list', request('GET', authorization))));
      expect(problem).toMatchObject({ status: 401, code: 'unauthenticated', headers: { 'www-authenticate': 'Bearer realm="longhaul"' } });
    }
    // A refused key was not used.
    expect(used).not.toHaveBeenCalled();
  });

  it('attaches the principal when the key has the scope the method implies', async () => {
    const { guard: g } = guard({ ok: true, principal: principal(['read']) });
    const req = request('GET', 'Bearer lh_x');
    await expect(g.canActivate(context('list', req))).resolves.toBe(true);
    expect(req.principal?.tenantId).toBe('t1');
  });

  it('answers 403 insufficient_scope for a write with a read key, and for an admin route without admin', async () => {
    const { guard: reader, used } = guard({ ok: true, principal: principal(['read']) });
    expect(await problemOf(reader.canActivate(context('create', request('POST', 'Bearer lh_x'))))).toMatchObject({ status: 403, code: 'insufficient_scope' });
    // The key is valid: its use is recorded even though this route is not within its scopes.
    expect(used).toHaveBeenCalledWith('k1');
    const writer = guard({ ok: true, principal: principal(['read', 'write']) }).guard;
    const req = request('DELETE', 'Bearer lh_x');
    expect(await problemOf(writer.canActivate(context('remove', req)))).toMatchObject({ status: 403, code: 'insufficient_scope' });
    expect(req.principal).toBeUndefined();
    const admin = guard({ ok: true, principal: principal(['admin']) }).guard;
    await expect(admin.canActivate(context('remove', request('DELETE', 'Bearer lh_x')))).resolves.toBe(true);
  });

  it('never logs the key itself', async () => {
    const { guard: g, logger } = guard({ ok: false, reason: 'secret_mismatch', prefix: 'abc' });
    const key = `lh_abcabcabcabc_${'S'.repeat(40)}`;
    await problemOf(g.canActivate(context('list', request('GET', `Bearer ${key}`))));
    expect(JSON.stringify((logger.info as jest.Mock).mock.calls)).not.toContain('S'.repeat(40));
  });
});
