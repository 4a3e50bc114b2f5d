// The parsers of the tests' stream reader, fed text in awkward chunks: SSE as WHATWG reads it, NDJSON
// lines, keep-alives skipped.
import { ndjsonItems, sseItems, type StreamItem } from './stream-reader';

/** Everything `parser` pushes when fed `chunks` one by one. */
function feed(
  make: (push: (item: StreamItem) => void) => (text: string) => void,
  chunks: string[],
): StreamItem[] {
  const items: StreamItem[] = [];
  const parse = make((item) => items.push(item));
  for (const chunk of chunks) parse(chunk);
  return items;
}

describe('sseItems', () => {
  it('reads events split anywhere, with CRLF, LF and CR line ends (a CRLF split between chunks is one)', () => {
    const text = 'event: game\r\nid: 7\r\ndata: {"a":\r\ndata: 1}\r\n\r\ndata: 2\n\ndata: 3\r\r';
    const expected = [
      { event: 'game', id: '7', data: { a: 1 } },
      { event: 'message', data: 2 },
      { event: 'message', data: 3 },
    ];
    expect(feed((push) => sseItems(push), [text])).toEqual(expected);
    for (let cut = 1; cut < text.length; cut++) {
      expect(feed((push) => sseItems(push), [text.slice(0, cut), text.slice(cut)])).toEqual(expected);
    }
    expect(feed((push) => sseItems(push), [...text])).toEqual(expected);
  });

  it('skips comments (keep-alives), events without data, unknown fields; an event the stream ends inside is none', () => {
    const items = feed(
      (push) => sseItems(push),
      [': keep-alive\n\n', 'event: ping\n\n', 'foo: 1\ndata:5\n\n', 'data: 6\n'],
    );
    expect(items).toEqual([{ event: 'message', data: 5 }]);
  });

  it('hands a retry: of digits to onRetry and ignores any other', () => {
    const retries: number[] = [];
    const items = feed(
      (push) => sseItems(push, (ms) => retries.push(ms)),
      ['retry: 2500\nretry: 1e3\nretry: x\n\n'],
    );
    expect(items).toEqual([]);
    expect(retries).toEqual([2500]);
  });
});

describe('ndjsonItems', () => {
  it('parses one document per line, however split; blank lines are keep-alives', () => {
    const text = '{"a":1}\n\n  \n{"b":[2]}\r\n';
    const expected = [{ a: 1 }, { b: [2] }];
    for (let cut = 0; cut <= text.length; cut++) {
      expect(feed(ndjsonItems, [text.slice(0, cut), text.slice(cut)])).toEqual(expected);
    }
    expect(feed(ndjsonItems, ['{"c":3}'])).toEqual([]);
  });
});
