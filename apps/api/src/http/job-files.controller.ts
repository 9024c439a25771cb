import { Controller, Get, Headers, Param, Res } from '@nestjs/common';
import type { Response } from 'express';
import { pipeline } from 'node:stream/promises';
import { JobFilesService } from '@longhaul/jobs';
import { requireUuid } from './id.param';

/**
 * `GET /v1/jobs/{id}/files/<path>`: a job's output files, with HTTP range support for the
 * filesystem store (so a player can seek) and presigned redirects for object storage.
 */
@Controller('v1/jobs')
export class JobFilesController {
  constructor(private readonly files: JobFilesService) {}

  @Get(':id/files/*path')
  async get(
    @Param('id') id: string,
    @Param('path') path: string[] | string,
    @Headers('range') range: string | undefined,
    @Res() res: Response,
  ): Promise<void> {
    const segments = Array.isArray(path) ? path : path.split('/');
    const answer = await this.files.open(requireUuid(id, 'job'), segments, range);
    switch (answer.kind) {
      case 'redirect':
        res.redirect(302, answer.url);
        return;
      case 'text':
        res.status(200).type(answer.contentType).send(answer.body);
        return;
      case 'unsatisfiable':
        res.status(416).set('content-range', `bytes */${answer.size}`).end();
        return;
      case 'stream':
        res.status(answer.status).set(answer.headers);
        await pipeline(answer.body, res);
        return;
    }
  }
}
