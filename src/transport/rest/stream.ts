import type { Request, Response } from 'express';
import type { GameService } from '../../service/games';

/** Keep-alive comment interval: below common proxy idle timeouts (30–60 s). */
const KEEPALIVE_MS = 15_000;

/** Open streams, so that shutdown can end them (an SSE response never ends by itself). */
export type OpenStreams = Set<() => void>;

/** Server-Sent Events of one game: now, then every version; resumes after Last-Event-ID. */
export async function streamGame(
  service: GameService,
  id: string,
  req: Request,
  res: Response,
  open: OpenStreams,
): Promise<void> {
  const lastSeen = Number(req.headers['last-event-id'] ?? -1);
  const after = Number.isInteger(lastSeen) ? lastSeen : -1;
  let started = false;
  const pending: string[] = [];
  const send = (chunk: string) => (started ? res.write(chunk) : pending.push(chunk));
  // watch() fails with GAME_NOT_FOUND / INVALID_INPUT before any byte is written.
  const unsubscribe = await service.watch(id, (game) => {
    if (game.version <= after) return;
    send(`id: ${game.version}\nevent: game\ndata: ${JSON.stringify(game)}\n\n`);
    if (game.status === 'finished') send('event: end\ndata: {}\n\n');
  });
  res.writeHead(200, {
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-cache, no-transform',
    Connection: 'keep-alive',
    'X-Accel-Buffering': 'no',
  });
  res.write('retry: 2000\n\n');
  started = true;
  for (const chunk of pending) res.write(chunk);
  const keepAlive = setInterval(() => res.write(': keep-alive\n\n'), KEEPALIVE_MS);
  const close = () => {
    clearInterval(keepAlive);
    open.delete(shutdown);
    void unsubscribe();
  };
  // On server shutdown: tell the client (it reconnects elsewhere after `retry`) and end the response.
  const shutdown = () => {
    res.end('event: shutdown\ndata: {}\n\n');
    close();
  };
  open.add(shutdown);
  req.on('close', close);
  res.on('error', close);
}
