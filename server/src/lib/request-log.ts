import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/**
 * Outside production a request is one line when it ends — method, address, status and time
 * (`GET /api/new/user 200 3 ms`) — instead of Fastify's «incoming request» and «request
 * completed» objects. Production keeps Fastify's own (`readableLogs` in `logger.ts` decides).
 */
export class RequestLines extends LogController {
  override incomingRequest(): void {
    // The line is written when the request ends, with its status.
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const line = `${request.method} ${request.url} ${String(reply.statusCode)} ${String(Math.round(reply.elapsedTime))} ms`;
    if (error) request.log.error({ err: error }, line);
    else if (reply.statusCode >= 500) request.log.error(line);
    else request.log.info(line);
  }
}
