import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import express, { type Router } from 'express';
import type { Services } from '../../service';
import { GameError, toGameError } from '../../service/errors';
import { credentialOf } from '../rest/route';
import { sendProblem } from '../rest/problem';
import { DEFAULT_RULES_DIR } from '../rest/rules';
import { registerAiTools } from './ai-tools';
import { registerChallengeTools } from './challenge-tools';
import { registerChatTools } from './chat-tools';
import { registerCompetitionTools } from './competition-tools';
import type { McpContext } from './context';
import { registerGameTools } from './game-tools';
import { registerRematchTools } from './rematch-tools';

// The Model Context Protocol at /mcp: Streamable HTTP in its stateless form. Each POST carries
// JSON-RPC messages and is answered with JSON (no session, no server-sent stream), so any node can
// answer any request, and nothing is kept between them. The caller is the account of the bearer API
// token, checked on every request like REST's; each tool makes one service call with it.
// One POST carries one JSON-RPC message: batches (removed from MCP in 2025-06-18) are refused, so
// the rate limit, which counts requests, counts every message.

/** What the server tells an agent about itself in the MCP handshake. */
export const MCP_INSTRUCTIONS =
  'Boardhost hosts two-player board games (Congo, Russian draughts, Kalah, Oware, Congkak). ' +
  'Start with list_kinds and get_rules; list_challenges / accept_challenge or create_challenge to get a game; ' +
  'list_my_games shows the games where it is your turn first; get_game gives the legal moves; play_move plays ' +
  'one (an illegal move is answered with the legal moves). Seat names (south/north, white/black) are those of ' +
  'the notation. play_ai starts a game against the built-in AI (levels 1–8), played like any other; analyze ' +
  'gives the best move and score of a position or game. list_tournaments / join_tournament enter ' +
  'tournaments (get_tournament: standings); get_ratings and get_leaderboard read ratings.';

/** The answer to a JSON-RPC batch (an array of messages in one POST): 400, nothing run. */
const BATCH_REFUSED = {
  jsonrpc: '2.0',
  error: {
    code: -32600,
    message:
      'Invalid Request: JSON-RPC batches are not accepted (MCP 2025-06-18 removed them); POST one message per request',
  },
  id: null,
} as const;

export interface McpOptions {
  /** Where get_rules reads the rules pages (default: the repository's docs/rules). */
  readonly rulesDir?: string;
  /** The server version announced in the handshake. */
  readonly version?: string;
}

/** One MCP server with every Boardhost tool, acting for one caller. */
export function createMcpServer(ctx: McpContext, version = '0.1.0'): McpServer {
  const server = new McpServer({ name: 'boardhost', version }, { instructions: MCP_INSTRUCTIONS });
  registerChallengeTools(server, ctx);
  registerGameTools(server, ctx);
  registerRematchTools(server, ctx);
  registerChatTools(server, ctx);
  registerCompetitionTools(server, ctx);
  registerAiTools(server, ctx);
  return server;
}

/**
 * The /mcp router (mount it after the rate limit and the JSON body parser). Refuses a request
 * without a valid account API token with 401 and WWW-Authenticate, before any MCP message is read.
 */
export function mcpRouter(services: Services, options: McpOptions = {}): Router {
  const router = express.Router();
  const rulesDir = options.rulesDir ?? DEFAULT_RULES_DIR;
  router.post('/', async (req, res) => {
    if (Array.isArray(req.body)) {
      // Before the token lookup: nothing of a batch is read or run.
      return res.status(400).json(BATCH_REFUSED);
    }
    let ctx: McpContext;
    try {
      const credential = credentialOf(req);
      if (credential.token === undefined) {
        throw new GameError(
          'UNAUTHENTICATED',
          'MCP needs an account API token (Authorization: Bearer bhp_…)',
        );
      }
      const me = await services.accounts.me(credential);
      ctx = { services, credential, me: me.id, rulesDir };
    } catch (thrown) {
      const error = toGameError(thrown);
      if (error.status === 401) res.setHeader('WWW-Authenticate', 'Bearer realm="boardhost"');
      return sendProblem(res, error);
    }
    const server = createMcpServer(ctx, options.version);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  });
  // Stateless: no server-sent stream to open (GET) and no session to end (DELETE).
  router.all('/', (_req, res) => {
    res
      .status(405)
      .setHeader('Allow', 'POST')
      .json({
        jsonrpc: '2.0',
        error: { code: -32000, message: 'Method not allowed: POST JSON-RPC to /mcp' },
        id: null,
      });
  });
  return router;
}
