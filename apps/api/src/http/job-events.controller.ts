import { Controller, Get, Headers, Param, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { CurrentPrincipal, type Principal } from '@longhaul/auth';
import { ErrorCodes } from '@longhaul/contracts';
import { JobFeedService, resumePointOf, writableFeedSink, type JobFeedStream } from '@longhaul/jobs';
import { ProblemError } from '@longhaul/platform';
import { requireUuid } from './id.param';

/**
 * `GET /v1/jobs/{id}/events`: the job's feed as Server-Sent Events, from the start or after
 * `Last-Event-ID` (or `?lastEventId=`), live until the job ends. `204` when the job has ended and
 * the client has every event: an `EventSource` stops reconnecting on a 204, where a stream closed
 * at once would have it reconnect every `retry` for ever.
 */
@Controller('v1/jobs')
export class JobEventsController {
  constructor(private readonly feed: JobFeedService) {}

  @Get(':id/events')
  async events(
    @Param('id') id: string,
    @Headers('last-event-id') lastEventIdHeader: string | undefined,
    @Query('lastEventId') lastEventIdQuery: unknown,
    @CurrentPrincipal() principal: Principal,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const res = reply.raw;
    const jobId = requireUuid(id, 'job');
    const resume = resumePointOf(lastEventIdHeader, lastEventIdQuery);
    if (!resume.ok) {
      throw ProblemError.of(400, ErrorCodes.validationFailed, resume.message, {
        errors: [{ field: resume.field, message: resume.message }],
      });
    }
    // Heard before the checks finish, so a client that leaves meanwhile never leaves a stream behind.
    let stream: JobFeedStream | null = null;
    let gone = false;
    res.once('close', () => {
      gone = true;
      stream?.close();
    });
    const { finished } = await this.feed.open(jobId, principal.tenantId, resume);
    if (gone) return;
    if (finished) {
      void reply.status(204).send();
      return;
    }
    // From here the stream is written to the socket by the feed, not answered through Fastify.
    reply.hijack();
    // Written straight to the socket: no compression or body parser touches this response,
    // and the server's requestTimeout bounds receiving a request, not answering it.
    res.writeHead(200, {
      'Content-Type': 'text/event-stream',
      'Cache-Control': 'no-cache',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    res.socket?.setNoDelay(true);
    stream = this.feed.stream(jobId, resume.after, writableFeedSink(res));
  }
}
