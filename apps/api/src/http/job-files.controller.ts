import { Controller, Get, Headers, Param, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { pipeline } from 'node:stream/promises';
import { CurrentPrincipal, Public, type Principal } from '@longhaul/auth';
import { JobFilesService, type JobFileAnswer } from '@longhaul/jobs';
import { requireUuid } from './id.param';

function segmentsOf(path: string[] | string): string[] {
  return Array.isArray(path) ? path : path.split('/');
}

/**
 * A job's output files, with HTTP range support for the filesystem store (so a player can seek)
 * and presigned redirects for object storage:
 * - `GET /v1/jobs/{id}/files/<path>` with an API key of the job's tenant;
 * - `GET /v1/files/<grant>/<path>`, the links a job view hands out: the download grant in the
 *   path is the credential, so browsers (`<img>`, `<video>`, hls.js) and plain downloads need no key.
 */
@Controller('v1')
export class JobFilesController {
  constructor(private readonly files: JobFilesService) {}

  @Get('jobs/:id/files/*path')
  async get(
    @Param('id') id: string,
    @Param('path') path: string[] | string,
    @Headers('range') range: string | undefined,
    @CurrentPrincipal() principal: Principal,
    @Res() res: FastifyReply,
  ): Promise<void> {
    await send(res, await this.files.open(requireUuid(id, 'job'), segmentsOf(path), range, { tenantId: principal.tenantId }));
  }

  @Public()
  @Get('files/:grant/*path')
  async granted(
    @Param('grant') grant: string,
    @Param('path') path: string[] | string,
    @Headers('range') range: string | undefined,
    @Res() res: FastifyReply,
  ): Promise<void> {
    await send(res, await this.files.openWithGrant(grant, segmentsOf(path), range));
  }
}

async function send(reply: FastifyReply, answer: JobFileAnswer): Promise<void> {
  switch (answer.kind) {
    case 'redirect':
      await reply.redirect(answer.url, 302);
      return;
    case 'text':
      await reply.status(200).type(answer.contentType).send(answer.body);
      return;
    case 'unsatisfiable':
      await reply.status(416).header('content-range', `bytes */${answer.size}`).send();
      return;
    case 'stream':
      // Written to the socket here, so a failure midway ends the connection rather than the answer.
      reply.hijack();
      reply.raw.writeHead(answer.status, answer.headers);
      await pipeline(answer.body, reply.raw);
      return;
  }
}
