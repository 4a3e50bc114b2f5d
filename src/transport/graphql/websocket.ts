import {
  getOperationAST,
  GraphQLError,
  type DocumentNode,
  type ExecutionResult,
  type GraphQLSchema,
  type ValidationRule,
} from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import type { IncomingMessage, Server } from 'node:http';
import type { Logger } from 'pino';
import { WebSocket, WebSocketServer } from 'ws';
import type { Services } from '../../service';
import { hashToken } from '../../service/accounts/auth';
import { GameError, toGameError } from '../../service/errors';
import { addressBucket } from '../../service/accounts/quotas';
import type { StreamSlot } from '../../service/delivery/stream-slots';
import type { TokenWatch } from '../../service/accounts/token-streams';
import { graphQLOperationCount, rateLimitedError, type RateGate } from '../rate-limit';
import { ACCOUNT_PARAM, actingAccountOf } from '../acting';
import { bearerFrom, type GraphQLContext } from './context';
import { Heartbeats } from '../heartbeats';
import { formatGraphQLError } from './errors';
import { isSharedResult, subscribeShared } from './shared-execution';
import { SharedFrameWebSocket, sharedPayload } from './shared-frames';
import { isQuery, startBudget, withinBudget } from './budget';
import { checkDocument, costError, type GraphQLLimits } from './limits';

// graphql-ws on the HTTP server's /graphql. Every message is bounded in size before it is read; every
// operation passes the same limits as over HTTP (tokens, depth, cost, aliases) and the rate limit;
// open connections and subscriptions are capped per client address (IPv4, or IPv6 /64, as the rate
// limiter and quotas count) and per account, on each node; each subscription also holds a stream
// slot (services.streamSlots), counted with the REST API's streams.

export interface WebSocketLimits {
  /** Largest message a client may send, in bytes; a larger one closes the connection (1009). */
  readonly maxMessageBytes: number;
  /** Open connections per client IP; the next is closed with 4429 TOO_MANY_CONNECTIONS. */
  readonly maxConnectionsPerIp: number;
  /** Open connections per account (or seat token); the next is closed with 4429. */
  readonly maxConnectionsPerAccount: number;
  /** Running subscriptions per client IP; the next gets TOO_MANY_SUBSCRIPTIONS. */
  readonly maxSubscriptionsPerIp: number;
  /** Running subscriptions per account (or seat token); the next gets TOO_MANY_SUBSCRIPTIONS. */
  readonly maxSubscriptionsPerAccount: number;
  /**
   * A ping to every connection this often (whole seconds; default 15 s, the REST streams'
   * keep-alive period); one that has not answered the last one by the next is terminated.
   */
  readonly pingIntervalMs?: number;
}

export const DEFAULT_WEBSOCKET_LIMITS: WebSocketLimits = {
  maxMessageBytes: 64 * 1024,
  maxConnectionsPerIp: 50,
  maxConnectionsPerAccount: 20,
  maxSubscriptionsPerIp: 500,
  maxSubscriptionsPerAccount: 200,
};

/**
 * The default ping interval: the REST streams' keep-alive period, below common proxy idle timeouts
 * (30–60 s). graphql-ws' own keep-alive pings every 12 s with a timer or two per socket; here one
 * wheel for all of them, and 20% fewer pings (and pongs) for idle connections to wake the node for.
 */
const PING_MS = 15_000;

/** The close code for a connection over a connection cap (like HTTP 429). */
export const TOO_MANY_CONNECTIONS_CLOSE_CODE = 4429;

/** Counts per key (an IP, an account) against a maximum. */
class Counter {
  private readonly counts = new Map<string, number>();
  constructor(readonly max: number) {}
  /** Takes one for `key`; false (nothing taken) when `key` is at the maximum. */
  take(key: string): boolean {
    const n = this.counts.get(key) ?? 0;
    if (n >= this.max) return false;
    this.counts.set(key, n + 1);
    return true;
  }
  give(key: string): void {
    const n = (this.counts.get(key) ?? 0) - 1;
    if (n > 0) this.counts.set(key, n);
    else this.counts.delete(key);
  }
}

/**
 * Documents that parsed and passed validation, by their text, shared by every subscription that
 * sends the same text (clients send the same few): one parse and validation, and one syntax tree
 * held by all of them instead of one each. Only short texts are kept, and few of them in all
 * (least recently used first out): a flood of distinct documents holds little.
 */
class Documents {
  static readonly MAX_SOURCE_CHARS = 4096;
  static readonly MAX_TOTAL_CHARS = 256 * 1024;
  private readonly documents = new Map<string, DocumentNode>();
  private chars = 0;

  get(source: string): DocumentNode | undefined {
    const document = this.documents.get(source);
    if (document) {
      this.documents.delete(source);
      this.documents.set(source, document);
    }
    return document;
  }

  set(source: string, document: DocumentNode): void {
    if (source.length > Documents.MAX_SOURCE_CHARS || this.documents.has(source)) return;
    this.documents.set(source, document);
    this.chars += source.length;
    for (const oldest of this.documents.keys()) {
      if (this.chars <= Documents.MAX_TOTAL_CHARS) break;
      this.documents.delete(oldest);
      this.chars -= oldest.length;
    }
  }
}

/**
 * What a connection holds: its address (the client's, and the bucket it counts in), its account key
 * once known, its running subscriptions with their stream slots, and the watch on its API token
 * (revoking the token, or its expiry, closes the connection).
 */
interface Holder {
  readonly address: string;
  readonly ip: string;
  account?: string;
  readonly subscriptions: Map<string, StreamSlot>;
  tokenWatch?: TokenWatch;
  closed: boolean;
}

/**
 * The close code when the connection's API token is revoked or expires: 4401 (Unauthorized), which
 * graphql-ws clients take as final and do not retry.
 */
export const TOKEN_REVOKED_CLOSE_CODE = 4401;

type Extra = { request: IncomingMessage; socket: WebSocket; holder?: Holder };

/**
 * A socket's emit, with a text message handed on as the string it is: graphql-ws' message listener
 * (an async function that awaits a subscription for as long as it lasts) turns what it gets into a
 * string and keeps its argument meanwhile; a Buffer (~450 B with its memory) would stay with every
 * idle subscription for nothing. Binary messages are handed on as they come.
 */
function emitTextAsString(this: WebSocket, event: string | symbol, ...args: unknown[]): boolean {
  if (event === 'message' && args[1] === false && Buffer.isBuffer(args[0])) {
    args[0] = args[0].toString();
  }
  return WebSocket.prototype.emit.call(this, event, ...args);
}

/**
 * The client address of a connection: its holder's (worked out once at the upgrade), else from its
 * upgrade request while the connection still holds it (see onConnect).
 */
function addressOf(
  holders: WeakMap<WebSocket, Holder>,
  extra: Extra,
  clientIp: (r: IncomingMessage) => string,
) {
  return holders.get(extra.socket)?.address ?? clientIp(extra.request);
}

export function createWebSocketServer(options: {
  httpServer: Server;
  schema: GraphQLSchema;
  services: Services;
  limits: GraphQLLimits;
  rules: readonly ValidationRule[];
  websocket: WebSocketLimits;
  gate?: RateGate;
  logger?: Logger;
  /** The client address of an upgrade request (as TRUST_PROXY resolves it). */
  clientIp: (request: IncomingMessage) => string;
}): { stop: () => Promise<void> } {
  const { httpServer, schema, services, limits, rules, websocket, gate, logger, clientIp } = options;
  // `maxPayload` makes ws refuse a larger frame from its header, before buffering it.
  const wsServer = new WebSocketServer({
    server: httpServer,
    path: '/graphql',
    maxPayload: websocket.maxMessageBytes,
    // Sends a shared result's `next` payload encoded once for all its subscribers (shared-frames.ts).
    WebSocket: SharedFrameWebSocket,
  });
  const connectionsPerIp = new Counter(websocket.maxConnectionsPerIp);
  const connectionsPerAccount = new Counter(websocket.maxConnectionsPerAccount);
  const subscriptionsPerIp = new Counter(websocket.maxSubscriptionsPerIp);
  const subscriptionsPerAccount = new Counter(websocket.maxSubscriptionsPerAccount);
  const holders = new WeakMap<WebSocket, Holder>();
  const documents = new Documents();
  const pings = new Heartbeats(websocket.pingIntervalMs ?? PING_MS);

  /** checkDocument, with the parse and validation of a text seen before skipped (its cost still counted). */
  const check = (payload: {
    readonly query: string;
    readonly operationName?: string | null;
    readonly variables?: Readonly<Record<string, unknown>> | null;
  }): { document: DocumentNode } | { errors: GraphQLError[] } => {
    const known = documents.get(payload.query);
    if (known) {
      const tooCostly = costError(schema, known, limits.maxCost, payload.operationName, payload.variables);
      return tooCostly ? { errors: [tooCostly] } : { document: known };
    }
    const checked = checkDocument(schema, payload.query, limits, rules, payload);
    if ('document' in checked) documents.set(payload.query, checked.document);
    return checked;
  };

  // Registered before graphql-ws' own listener: a connection over the IP cap is closed at once.
  wsServer.on('connection', (socket, request) => {
    const address = clientIp(request);
    const ip = addressBucket(address);
    if (!connectionsPerIp.take(ip)) {
      socket.close(
        TOO_MANY_CONNECTIONS_CLOSE_CODE,
        'TOO_MANY_CONNECTIONS: too many connections from this IP',
      );
      return;
    }
    const holder: Holder = { address, ip, subscriptions: new Map(), closed: false };
    holders.set(socket, holder);
    socket.emit = emitTextAsString;
    let awaitingPong = false;
    socket.on('pong', () => (awaitingPong = false));
    const stopPings = pings.add(() => {
      if (socket.readyState !== socket.OPEN) return;
      if (awaitingPong) return socket.terminate();
      awaitingPong = true;
      socket.ping();
    });
    socket.once('close', () => {
      stopPings();
      holder.closed = true;
      holder.tokenWatch?.release();
      connectionsPerIp.give(ip);
      if (holder.account) connectionsPerAccount.give(holder.account);
      for (const id of [...holder.subscriptions.keys()]) release(holder, id);
    });
  });

  const release = (holder: Holder, id: string) => {
    const slot = holder.subscriptions.get(id);
    if (!slot) return;
    holder.subscriptions.delete(id);
    slot.release();
    subscriptionsPerIp.give(holder.ip);
    if (holder.account) subscriptionsPerAccount.give(holder.account);
  };

  const tokenOf = (params: Record<string, unknown> | undefined) =>
    bearerFrom(params?.authorization ?? params?.Authorization) ?? stringOrUndefined(params?.seatToken);

  /** The key connections and subscriptions are counted under: the account, else the token. */
  const accountKey = async (token: string): Promise<string> => {
    if (token.startsWith('bhp_')) {
      try {
        return `account:${(await services.accounts.me({ token })).username.toLowerCase()}`;
      } catch {
        // An unknown token: its operations will be refused; count it as itself meanwhile.
      }
    }
    return `token:${hashToken(token)}`;
  };

  const format = (error: GraphQLError) => {
    const formatted = formatGraphQLError(error.toJSON(), error);
    if (formatted.extensions?.code === 'INTERNAL') logger?.error({ err: rootError(error) }, 'internal error');
    return formatted;
  };

  const cleanup = useServer<Record<string, unknown>, Extra>(
    {
      schema,
      // The game subscriptions' selections run once per version and operation, for every subscriber.
      subscribe: subscribeShared,
      onConnect: async (ctx) => {
        const holder = holders.get(ctx.extra.socket);
        if (!holder) return false;
        // The upgrade request (~1 KB with its headers) is not read again: its client address is the
        // holder's. graphql-ws keeps `extra` for as long as the connection lasts; it is let go.
        // Set to undefined rather than deleted (a deleted property turns an object into a larger
        // dictionary).
        (ctx.extra as { request: IncomingMessage | undefined }).request = undefined;
        const token = tokenOf(ctx.connectionParams);
        // Watched before anything awaits, so that a revocation cannot slip in between.
        holder.tokenWatch = services.tokenStreams.watch(token ? { token } : {});
        holder.tokenWatch.onEnd((reason) =>
          ctx.extra.socket.close(TOKEN_REVOKED_CLOSE_CODE, `API token ${reason}`),
        );
        if (token) {
          const key = await accountKey(token);
          if (!connectionsPerAccount.take(key)) {
            ctx.extra.socket.close(
              TOO_MANY_CONNECTIONS_CLOSE_CODE,
              'TOO_MANY_CONNECTIONS: too many connections for this account',
            );
            return false;
          }
          holder.account = key;
        }
        return true;
      },
      context: (ctx, _id, _payload, args): GraphQLContext => {
        const token = tokenOf(ctx.connectionParams);
        const budget = startBudget(args.document, args.operationName, limits);
        // An app key acts as one of its accounts: the `boardhostAccount` connection parameter.
        const acting = actingAccountOf(ctx.connectionParams?.[ACCOUNT_PARAM]);
        return {
          services,
          ip: addressOf(holders, ctx.extra, clientIp),
          ...(token ? { bearerToken: token } : {}),
          ...(acting === undefined ? {} : { actingAccount: acting }),
          ...(budget ? { budget } : {}),
        };
      },
      // graphql-ws would parse with no limits: parse, validate and count every operation here.
      onSubscribe: async (ctx, id, payload) => {
        const holder = holders.get(ctx.extra.socket);
        const checked = check(payload);
        if ('errors' in checked) return checked.errors;
        const operation = getOperationAST(checked.document, payload.operationName);
        if (gate) {
          try {
            const decision = await gate.check(
              tokenOf(ctx.connectionParams),
              addressOf(holders, ctx.extra, clientIp),
              graphQLOperationCount(operation, checked.document),
            );
            if (!decision.allowed) return [asGraphQLError(rateLimitedError(decision))];
          } catch (error) {
            return [asGraphQLError(toGameError(error))];
          }
        }
        if (holder && operation?.operation === 'subscription') {
          const refusal = await hold(holder, id, tokenOf(ctx.connectionParams));
          if (refusal) return [asGraphQLError(refusal)];
        }
        return {
          schema,
          document: checked.document,
          ...(payload.operationName ? { operationName: payload.operationName } : {}),
          ...(payload.variables ? { variableValues: payload.variables } : {}),
        };
      },
      onComplete: (ctx, id) => {
        const holder = holders.get(ctx.extra.socket);
        if (holder) release(holder, id);
      },
      // A query's answer within its budgets (budget.ts); every error formatted.
      // A result shared by every subscriber of its operation: its payload encoded once (shared-frames.ts).
      onNext: (_ctx, _id, _payload, args, result) => {
        const shared = isSharedResult(result) ? sharedPayload(result) : undefined;
        if (shared) return shared as ExecutionResult;
        const formatted = result.errors ? { ...result, errors: result.errors.map(format) } : undefined;
        if (!isQuery(args.document, args.operationName)) return formatted;
        return withinBudget(formatted ?? result, limits, (args.contextValue as GraphQLContext).budget);
      },
      onError: (ctx, id, _payload, errors) => {
        const holder = holders.get(ctx.extra.socket);
        if (holder) release(holder, id);
        return errors.map(format);
      },
    },
    wsServer,
    // No keep-alive of graphql-ws' own (a timer per socket, and one more per ping): `pings` above.
    0,
  );

  // ws closes a socket whose frame breaks the protocol or the size limit (1009) by itself; graphql-ws'
  // own handler would console.error it as an internal error. It is the client's mistake: log a warning.
  wsServer.on('connection', (socket) => {
    socket.removeAllListeners('error');
    socket.on('error', (error) => logger?.warn({ err: error }, 'WebSocket closed on a protocol error'));
  });

  /**
   * Takes a stream slot (shared with the REST streams: TOO_MANY_STREAMS) and a subscription slot
   * (TOO_MANY_SUBSCRIPTIONS) for `holder`; the refusal when a cap is reached.
   */
  async function hold(holder: Holder, id: string, token: string | undefined): Promise<GameError | undefined> {
    let slot: StreamSlot;
    try {
      slot = await services.streamSlots.take(holder.address, token);
    } catch (error) {
      return toGameError(error);
    }
    // The socket closed, or the id was taken, while the slot was being looked up.
    if (holder.closed || holder.subscriptions.has(id)) {
      slot.release();
      return undefined;
    }
    if (!subscriptionsPerIp.take(holder.ip)) {
      slot.release();
      return tooManySubscriptions('ip', websocket.maxSubscriptionsPerIp);
    }
    if (holder.account && !subscriptionsPerAccount.take(holder.account)) {
      slot.release();
      subscriptionsPerIp.give(holder.ip);
      return tooManySubscriptions('account', websocket.maxSubscriptionsPerAccount);
    }
    holder.subscriptions.set(id, slot);
    return undefined;
  }

  let stopped: Promise<void> | undefined;
  return {
    // Apollo's drain and the app's stop both call this: close once.
    stop: () =>
      (stopped ??= (async () => {
        await cleanup.dispose();
        await new Promise<void>((resolve) => wsServer.close(() => resolve()));
      })()),
  };
}

function tooManySubscriptions(scope: 'ip' | 'account', max: number): GameError {
  return new GameError(
    'TOO_MANY_SUBSCRIPTIONS',
    `Too many subscriptions for this ${scope === 'ip' ? 'IP' : 'account'} (at most ${max}); end one first`,
    { scope, max },
  );
}

/** A GameError as a GraphQL error with its code, for refusals made outside resolvers. */
export function asGraphQLError(error: GameError): GraphQLError {
  return new GraphQLError(error.message, {
    originalError: error,
    extensions: { ...error.details, code: error.code },
  });
}

/** The innermost original error (what a resolver threw), for the log. */
export function rootError(error: unknown): unknown {
  let current = error;
  while (current instanceof GraphQLError && current.originalError) current = current.originalError;
  return current;
}

function stringOrUndefined(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}
