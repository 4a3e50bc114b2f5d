import { GameError } from '../errors';

// Names people choose and others read: usernames, API token labels, tournament names.
//
// Every such field goes through checkText, which refuses the characters that make text lie about
// itself: controls (Unicode Cc: C0, DEL, C1, so tabs and newlines too), format characters (Cf: the
// bidi overrides and isolates U+202A–202E and U+2066–2069, zero-width spaces and joiners, the BOM,
// soft hyphens), line and paragraph separators (Zl, Zp) and lone surrogates (Cs). Refused, never
// stripped: a client learns its name was not taken as sent.
//
// Usernames also may not look like a reserved name (reservedNameOf): both are folded to a
// confusable skeleton (usernameSkeleton) and compared.

/** What checkText refuses: Unicode categories Cc, Cf, Cs, Zl and Zp. */
const UNSAFE = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]/u;

/**
 * `value` if it holds none of the characters above; INVALID_CHARACTER (400) naming the field, the
 * first such character (`U+202E`) and its index otherwise.
 */
export function checkText(field: string, value: string): string {
  const match = UNSAFE.exec(value);
  if (!match) return value;
  const character = `U+${(match[0].codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
  throw new GameError(
    'INVALID_CHARACTER',
    `${field} may not hold control, format or bidi characters (${character} at ${match.index})`,
    { field, character, index: match.index },
  );
}

/** The same characters, every occurrence (stripUnsafe). */
const UNSAFE_ALL = new RegExp(UNSAFE.source, 'gu');
/** The unsafe characters that separate words (tabs, line breaks, Zl, Zp): stripUnsafe makes them spaces. */
const BREAKS = /[\t\n\v\f\r\u0085\u2028\u2029]/g;

/**
 * `value` without the characters checkText refuses, for free text that is cleaned rather than
 * refused (chat messages): tabs and line breaks become spaces, the others are dropped.
 */
export function stripUnsafe(value: string): string {
  return value.replace(BREAKS, ' ').replace(UNSAFE_ALL, '');
}

/**
 * Names no account may take, nor any name whose skeleton equals theirs. The built-in AI accounts
 * (`ai-level-N`) are reserved by pattern (RESERVED_AI).
 */
export const RESERVED_USERNAMES: readonly string[] = [
  'admin',
  'administrator',
  'boardhost',
  'root',
  'system',
  'operator',
  'moderator',
  'support',
  'staff',
  'official',
  'security',
  'anonymous',
];

/** Characters read alike, folded after lower-casing (a small explicit map, not Unicode's tables). */
const FOLD: Readonly<Record<string, string>> = { '0': 'o', '1': 'l', i: 'l' };

/**
 * The confusable skeleton of a username: lower-cased; `-`, `_`, `.` and spaces dropped; `rn` read
 * as `m` and `vv` as `w`; then `0` → `o`, and `1`, `i` (so also `I`) → `l`. Two names with the same
 * skeleton look alike: `ai_level_1`, `ai-leveI-1` and `ai-level-1` all give `allevell`.
 */
export function usernameSkeleton(name: string): string {
  return name
    .toLowerCase()
    .replace(/[-_. ]/g, '')
    .replace(/rn/g, 'm')
    .replace(/vv/g, 'w')
    .replace(/[01i]/g, (c) => FOLD[c] ?? c);
}

/** `ai-level-` and a number, as a skeleton: `allevel` then digits (0 and 1 folded to o and l). */
const RESERVED_AI = /^allevel[ol2-9]+$/;
const RESERVED_SKELETONS = new Map(RESERVED_USERNAMES.map((name) => [usernameSkeleton(name), name]));

/** The reserved name `username` looks like (`ai-level-N` for the AI's), or undefined. */
export function reservedNameOf(username: string): string | undefined {
  const skeleton = usernameSkeleton(username);
  if (RESERVED_AI.test(skeleton)) return 'ai-level-N';
  return RESERVED_SKELETONS.get(skeleton);
}
