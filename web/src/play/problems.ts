// Every error the API can answer a player, as a sentence a player understands: one table from the
// problem's `code` (src/vocabulary.ts GAME_ERROR_CODES) to words, with the details some codes carry
// (when a claim opens, how long to wait, the limit hit) put in words. The page shows the sentence
// and keeps the code and the server's own message in a <details> (ProblemMessage) for whoever
// reports it. Pure functions, no DOM (test/web/problems.test.ts checks the table covers the codes).

/** A problem document as the API answers it (RFC 9457), with the details some codes add. */
export interface ProblemDoc {
  readonly code?: string;
  readonly title?: string;
  readonly detail?: string;
  readonly [detail: string]: unknown;
}

/** What the page shows: the sentence, and for the details element the code and the server's text. */
export interface ShownProblem {
  readonly sentence: string;
  readonly code?: string;
  readonly detail?: string;
}

/** "3 seconds", "1 minute", "2 hours 5 minutes", "3 days". */
export function duration(ms: number): string {
  const s = Math.max(1, Math.ceil(ms / 1000));
  const unit = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  if (s < 60) return unit(s, 'second');
  const minutes = Math.ceil(s / 60);
  if (minutes < 60) return unit(minutes, 'minute');
  const hours = Math.floor(minutes / 60);
  if (hours < 48)
    return [unit(hours, 'hour'), minutes % 60 ? unit(minutes % 60, 'minute') : ''].join(' ').trim();
  return unit(Math.round(hours / 24), 'day');
}

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);

/** "Try again in 12 seconds." from retryAfterSeconds, or "Try again shortly." */
function retry(p: ProblemDoc): string {
  const seconds = num(p['retryAfterSeconds']);
  return seconds === undefined ? 'Try again shortly.' : `Try again in ${duration(seconds * 1000)}.`;
}

/** " (at most 5)" from `max` or `limit` when it is a number. */
function most(p: ProblemDoc): string {
  const max = num(p['max']) ?? num(p['limit']);
  return max === undefined ? '' : ` (at most ${max})`;
}

/** When a claim opens, in words relative to `now`: "in 2 hours 5 minutes (at 14:05)". */
export function claimOpens(claimableAt: string, now: number): string {
  const at = Date.parse(claimableAt);
  if (Number.isNaN(at)) return 'later';
  if (at <= now) return 'now';
  const time = new Date(at).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
  return `in ${duration(at - now)} (${time})`;
}

type Sentence = string | ((p: ProblemDoc, now: number) => string);

/**
 * The sentence of every code a player can meet in the playground. Codes only operators, apps,
 * webhooks, bulk pairings or GraphQL clients meet are in NOT_MET_IN_PLAYGROUND instead (and fall
 * back to the server's message if they ever arrive).
 */
export const PROBLEM_SENTENCES: Readonly<Record<string, Sentence>> = {
  INVALID_INPUT: (p) => {
    const issues = Array.isArray(p['issues'])
      ? (p['issues'] as Array<{ path?: unknown; message?: unknown }>)
      : [];
    const first = issues[0];
    const field = first && typeof first.path === 'string' ? first.path.replace(/^body\./, '') : undefined;
    return field
      ? `The value of “${field}” was not accepted: ${String(first?.message ?? 'check it')}.`
      : 'Something in the form was not accepted: check the values and try again.';
  },
  INVALID_CHARACTER: 'A name holds an invisible or direction-changing character: type it again without it.',
  UNKNOWN_GAME_KIND: 'This server does not host that game.',
  INVALID_POSITION: (p) =>
    `The start position was not accepted${p.detail ? ` (${p.detail.replace(/\.$/, '')})` : ''}: check it against the notation below the field, or leave it empty for the usual start.`,
  UNAUTHENTICATED: 'You need to sign in (or open your seat link) to do that.',
  FORBIDDEN: 'Only a player of this game can do that, and only for their own seat.',
  MISSING_SCOPE: (p) => {
    const required = Array.isArray(p['required']) ? (p['required'] as unknown[]).join(' or ') : '';
    return `Your account's token may not do that${required ? ` (it needs the scope ${required})` : ''}: sign in with a full token.`;
  },
  TOKEN_EXPIRED: 'Your sign-in has expired: sign in again on the account page.',
  GAME_NOT_FOUND: 'There is no game with this id: check the link.',
  NOT_FOUND: 'That page or thing does not exist.',
  ACCOUNT_NOT_FOUND: 'No account has that username: check the spelling.',
  CHALLENGE_NOT_FOUND: 'That challenge does not exist any more.',
  SEEK_NOT_FOUND: 'That seek is gone: someone took it, it was withdrawn, or it expired.',
  TOURNAMENT_NOT_FOUND: 'That tournament does not exist.',
  TOURNAMENT_CLOSED: 'That tournament takes no entries any more.',
  TOURNAMENT_FULL: 'That tournament is full.',
  NOT_IN_TOURNAMENT: 'You are not playing in that tournament.',
  USERNAME_TAKEN: 'That username is taken: choose another.',
  USERNAME_RESERVED: (p) =>
    `That username looks too much like a reserved one${str(p['reserved']) ? ` (${String(p['reserved'])})` : ''}: choose another.`,
  CHALLENGE_CLOSED: (p) =>
    `That challenge is no longer open${str(p['challengeStatus']) ? `: it was ${String(p['challengeStatus'])}` : ''}.`,
  TOO_LATE_TO_ABORT: 'Too late to abort: both sides have moved. You can resign or offer a draw.',
  NO_DRAW_CLAIM:
    'No draw can be claimed now: a claim is only possible in a game without a clock, while your opponent is away on their turn. You can offer a draw instead.',
  NO_VICTORY_CLAIM:
    'No victory can be claimed now: a claim is only possible in a game without a clock, while your opponent is away on their turn.',
  CLAIM_TOO_EARLY: (p, now) => {
    const at = str(p['claimableAt']);
    return `Your opponent may still move: you can claim ${at ? claimOpens(at, now) : 'later'}.`;
  },
  VERSION_CONFLICT:
    'The game moved on while you were choosing: look at the board again and replay your move.',
  NOT_YOUR_TURN: 'It is not your turn: wait for your opponent’s move.',
  GAME_OVER: 'The game is over: nothing more can be played.',
  NO_DRAW_OFFER: 'There is no draw offer to answer (it may have been withdrawn by a move).',
  TIMEOUT: 'Time ran out: the game ended on the clock.',
  VACATION_ACTIVE: 'You are on vacation already: end it first.',
  VACATION_ALLOWANCE_EXCEEDED: (p) =>
    `That is more vacation than you have left this year${num(p['remainingDays']) !== undefined ? ` (${String(p['remainingDays'])} days)` : ''}.`,
  RATED_NOT_ALLOWED:
    'This game cannot be rated: rated games are between two accounts from the usual start position, and games against the computer are never rated.',
  ILLEGAL_MOVE: 'That move is not allowed here: choose one of the highlighted moves.',
  AMBIGUOUS_MOVE: (p) =>
    `That move could mean several moves${Array.isArray(p['candidates']) ? ` (${(p['candidates'] as unknown[]).join(', ')})` : ''}: choose one.`,
  IDEMPOTENCY_KEY_REUSED: 'The page sent two different requests as one: reload the page and try again.',
  IDEMPOTENCY_KEY_IN_USE: 'Your previous request is still being handled: try again in a moment.',
  EVENTS_EXPIRED: 'Some older events are no longer kept: the page shows what is current.',
  FEED_EPOCH_CHANGED: 'The server restarted its event list: the page reloads what is current.',
  UPDATES_LOST: 'The live connection missed some moves: the page reloads the game.',
  RATE_LIMITED: (p) => `Too many requests in a short time. ${retry(p)}`,
  TOO_MANY_STREAMS: (p) => `Too many pages are following games from here at once: close some. ${retry(p)}`,
  QUOTA_EXCEEDED: (p) =>
    `You have started as many games or accounts today as this server allows. ${retry(p)}`,
  TOO_MANY_GAMES: (p) => `Too many ongoing games${most(p)}: finish or resign one first.`,
  TOO_MANY_AI_GAMES: (p) =>
    `You already have as many games against the computer going as allowed${most(p)}: finish one first.`,
  TOO_MANY_TOKENS: (p) => `Your account has as many tokens as allowed${most(p)}: revoke one first.`,
  TOO_MANY_CHALLENGES: (p) =>
    `You have as many open challenges as allowed${most(p)}: wait for answers or cancel one.`,
  TOO_MANY_TOURNAMENTS: (p) => `You run as many tournaments as allowed${most(p)}: one must end first.`,
  BLOCKED: 'That player does not take challenges from you.',
  RATING_OUT_OF_RANGE: (p) => {
    const min = num(p['min']);
    const max = num(p['max']);
    const range =
      min !== undefined && max !== undefined
        ? ` (${min}–${max})`
        : min !== undefined
          ? ` (from ${min})`
          : max !== undefined
            ? ` (up to ${max})`
            : '';
    return `Your rating is outside the range this seek admits${range}.`;
  },
  TOO_MANY_BLOCKS: (p) => `You block as many accounts as allowed${most(p)}: unblock one first.`,
  LAST_ROOT_TOKEN: 'That is your account’s last full token: create another before revoking it.',
  ROOT_TOKEN_REQUIRED: 'Only a full token may revoke a full token.',
  TOKEN_OUTLIVES_CALLER: 'A token cannot create a token that outlives it.',
  SIGNUP_CLOSED: 'This server does not take new accounts here.',
  ACCOUNT_RESTRICTED: (p) =>
    `Your account may not do that now${str(p['status']) ? ` (it is ${String(p['status'])}${str(p['reason']) ? `: ${String(p['reason'])}` : ''})` : ''}.`,
  AI_BUSY: (p) => `The computer is busy with other games. ${retry(p)}`,
  TOO_MANY_ANALYSES: (p) => `You have as many analyses running as allowed. ${retry(p)}`,
  STORE_UNAVAILABLE: 'The server cannot reach its storage right now. Try again in a moment.',
  INTERNAL: 'Something went wrong on the server. Try again; if it happens again, report the code below.',
  PAYLOAD_TOO_LARGE: 'What you sent is too large.',
  // Issue #31: takeback, rematch and chat.
  TAKEBACK_NOT_ALLOWED: (p) =>
    ({
      rated: 'Rated games allow no takebacks.',
      forbidden: 'This game was set up without takebacks.',
      nothing: 'You have no move to take back yet.',
      offered: 'You have offered a takeback already: wait for the answer.',
    })[String(p['reason'])] ?? 'No takeback is possible now.',
  NO_TAKEBACK_OFFER: 'There is no takeback offer to answer (a move may have cleared it).',
  REMATCH_NOT_ALLOWED: (p) =>
    ({
      ongoing: 'A rematch can be offered once the game is over.',
      source: 'Tournament and paired games have no rematch.',
      blocked: 'A rematch is not possible with this player.',
      'seat-tokens': 'A rematch needs both players’ seats: start a new game instead.',
    })[String(p['reason'])] ?? 'No rematch is possible for this game.',
  NO_REMATCH_OFFER: 'There is no rematch offer to answer.',
  CHAT_DISABLED: (p) =>
    ({
      server: 'Chat is off on this server.',
      app: 'Chat is off for this site.',
      game: 'Chat is off in this game.',
      spectators: 'Only the players may chat in this game.',
    })[String(p['by'])] ?? 'Chat is off here.',
};

/** Codes a player of the playground never meets: operators', apps', webhooks', bulk and GraphQL's. */
export const NOT_MET_IN_PLAYGROUND: readonly string[] = [
  'UNSUPPORTED_MEDIA_TYPE',
  'WEBHOOK_NOT_FOUND',
  'DELIVERY_NOT_FOUND',
  'UNSAFE_WEBHOOK_URL',
  'TOO_MANY_WEBHOOKS',
  'QUERY_TOO_COMPLEX',
  'QUERY_BUDGET_EXCEEDED',
  'TOO_MANY_SUBSCRIPTIONS',
  'TOO_MANY_CONNECTIONS',
  'BULK_NOT_FOUND',
  'BULK_NOT_CANCELABLE',
  'BULK_TOKEN_INVALID',
  'BULK_TOKEN_SCOPE',
  'BULK_DUPLICATE_ACCOUNT',
  'APP_NOT_FOUND',
  'APP_KEY_NOT_FOUND',
  'SESSION_NOT_FOUND',
  'INVALID_REFRESH_TOKEN',
  'OPERATOR_ONLY',
  'ACCOUNT_REQUIRED',
  'APP_LIMIT_REACHED',
];

/** Anything a request failed with (a problem document, an Error, a string) as shown to a player. */
export function describeProblem(error: unknown, now = Date.now()): ShownProblem {
  if (error && typeof error === 'object' && !(error instanceof Error)) {
    const p = error as ProblemDoc;
    const code = str(p.code);
    const detail = str(p.detail) ?? str(p.title);
    const entry = code ? PROBLEM_SENTENCES[code] : undefined;
    const sentence = typeof entry === 'function' ? entry(p, now) : entry;
    return {
      sentence: sentence ?? detail ?? 'The server refused that.',
      ...(code ? { code } : {}),
      ...(detail ? { detail } : {}),
    };
  }
  const text = error instanceof Error ? error.message : String(error);
  // fetch's own failure: the network, not the server.
  if (/failed to fetch|networkerror|load failed/i.test(text)) {
    return {
      sentence: 'The server could not be reached: check your connection and try again.',
      detail: text,
    };
  }
  return { sentence: text };
}
