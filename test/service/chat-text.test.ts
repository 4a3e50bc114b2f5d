// What the chat keeps of a text (chatText) and which mode a game's chat is in (chatModeOf).
import { chatModeOf, chatText, CHAT_TEXT_MAX } from '../../src/service/game/chat';
import { stripUnsafe } from '../../src/service/accounts/names';
import type { StoredGame } from '../../src/store/store';

it('strips control, format and bidi characters, turns breaks into spaces, and trims', () => {
  expect(stripUnsafe('a\tb\nc\r\nd\u2028e\u2029f')).toBe('a b c  d e f');
  expect(stripUnsafe('\u202Eevil\u202C \u2066x\u2069 \u200Bz\uFEFF\u00AD\u0007\u007F\u0085!')).toBe(
    'evil x z !',
  );
  // A lone surrogate (Cs) goes; a whole pair (an emoji) stays.
  expect(stripUnsafe('\uD800x😀')).toBe('x😀');
  expect(chatText('  hello \u202E world \n')).toBe('hello  world');
});

it('refuses what is empty once cleaned, too long, or not a string', () => {
  for (const input of ['', ' \t\n ', '\u200B\u202E', 'a'.repeat(CHAT_TEXT_MAX + 1), null, 7, { text: 'x' }]) {
    expect(() => chatText(input)).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
  }
  expect(chatText('😀'.repeat(CHAT_TEXT_MAX))).toHaveLength(2 * CHAT_TEXT_MAX);
});

it('reads the game’s chat mode, seats unless it says everyone or off', () => {
  const game = (settings?: unknown) =>
    ({ id: 'g', ...(settings ? { settings } : {}) }) as unknown as StoredGame;
  expect(chatModeOf(game())).toBe('seats');
  expect(chatModeOf(game({ takeback: false }))).toBe('seats');
  expect(chatModeOf(game({ chat: 'everyone' }))).toBe('everyone');
  expect(chatModeOf(game({ chat: 'off' }))).toBe('off');
  expect(chatModeOf(game({ chat: 'nonsense' }))).toBe('seats');
});
