import { Controller, Get, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CurrentPrincipal, type Principal } from '@longhaul/auth';
import { UploadService, type UploadView } from '@longhaul/jobs';
import { requireUuid } from './id.param';

/** The route whose body the JSON body parser leaves unread (see `installJsonBody`'s `skipPaths`). */
export const UPLOADS_PATH = '/v1/uploads';

/**
 * `POST /v1/uploads` (the raw video as the body: `video/*` or `application/octet-stream`,
 * optional `Content-Disposition: attachment; filename="…"`) and `GET /v1/uploads/{id}`.
 * A job then names the upload as `source: { uploadId }`.
 */
@Controller('v1/uploads')
export class UploadsController {
  constructor(private readonly uploads: UploadService) {}

  @Post()
  @HttpCode(201)
  async create(@Req() request: FastifyRequest, @CurrentPrincipal() principal: Principal, @Res({ passthrough: true }) reply: FastifyReply): Promise<UploadView> {
    // The body is left unread by the body parser (installJsonBody's skipPaths): streamed from here.
    const req = request.raw;
    const res = reply.raw;
    // The client going away stops the probe; finishing normally is not going away.
    const gone = new AbortController();
    res.once('close', () => {
      if (!res.writableFinished) gone.abort(new Error('client closed the connection'));
    });
    try {
      const upload = await this.uploads.receive({
        tenantId: principal.tenantId,
        body: req,
        contentType: req.headers['content-type'],
        contentLength: req.headers['content-length'],
        contentDisposition: req.headers['content-disposition'],
        signal: gone.signal,
      });
      reply.header('Location', `${UPLOADS_PATH}/${upload.id}`);
      return upload;
    } catch (error) {
      // Refused before the body was read to its end (413, 415): close the connection once
      // answered, so the rest is never read (Node would otherwise drain it, up to gigabytes).
      if (!req.complete && !res.headersSent) res.setHeader('Connection', 'close');
      throw error;
    }
  }

  @Get(':id')
  get(@Param('id') id: string, @CurrentPrincipal() principal: Principal): Promise<UploadView> {
    return this.uploads.get(requireUuid(id, 'upload'), principal.tenantId);
  }
}
