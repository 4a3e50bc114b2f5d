// A result shared by many graphql-ws subscribers is encoded once: graphql-ws gets a placeholder
// payload, and the socket sends the message with the encoded payload in its place. The bytes are
// exactly those graphql-ws would have sent for the result itself.
import { GraphQLError, type ExecutionResult } from 'graphql';
import { stringifyMessage, MessageType } from 'graphql-ws';
import {
  resolveSharedFrame,
  sharedPayload,
  slowSharedFrame,
} from '../../src/transport/graphql/shared-frames';

/** The message graphql-ws sends for `payload` on subscription `id`. */
const message = (id: string, payload: unknown) =>
  stringifyMessage({ id, type: MessageType.Next, payload: payload as ExecutionResult });

describe('shared frames', () => {
  const result: ExecutionResult = {
    data: { gameUpdated: { id: 'g1', version: 3, position: 'a"b\\c — é', legalMoves: ['a1', 'b2'] } },
  };

  it('sends the same bytes as graphql-ws would, for any subscription id', () => {
    const marker = sharedPayload(result);
    expect(marker).toBeDefined();
    for (const id of ['1', 'c0ffee-42', 'with "quotes" and \\ and ,"type":"next","payload":{}}']) {
      const frame = resolveSharedFrame(message(id, marker));
      expect(frame?.toString()).toBe(message(id, result));
    }
  });

  it('encodes a result once: the same placeholder for every subscriber', () => {
    expect(sharedPayload(result)).toBe(sharedPayload(result));
    expect(sharedPayload({ data: { other: 1 } })).not.toEqual(sharedPayload(result));
  });

  it('leaves results with errors to graphql-ws (they are formatted per subscriber)', () => {
    expect(sharedPayload({ data: null, errors: [new GraphQLError('no')] })).toBeUndefined();
  });

  it('leaves every other message as it is', () => {
    expect(resolveSharedFrame(message('1', { data: { n: 1 } }))).toBeUndefined();
    expect(resolveSharedFrame(message('1', { '@sharedPayload': 999_999_999 }))).toBeUndefined();
    expect(resolveSharedFrame(message('1', { '@sharedPayload': 'x' }))).toBeUndefined();
    expect(resolveSharedFrame('{"type":"pong"}')).toBeUndefined();
  });

  it('never sends a placeholder: another message layout is parsed and filled in, a lost payload is an error', () => {
    const marker = sharedPayload(result);
    // The same message with its fields in another order (what a graphql-ws upgrade might write).
    const reordered = JSON.stringify({ type: 'next', payload: marker, id: '7' });
    expect(resolveSharedFrame(reordered)).toBeUndefined();
    expect(JSON.parse(slowSharedFrame(reordered) as string)).toEqual({
      type: 'next',
      payload: result,
      id: '7',
    });
    const lost = JSON.parse(slowSharedFrame(message('8', { '@sharedPayload': 999_999_999 })) as string);
    expect(lost.payload.errors[0].message).toMatch(/lost/);
    expect(JSON.stringify(lost)).not.toContain('@sharedPayload');
    expect(slowSharedFrame(message('1', { data: { n: 1 } }))).toBeUndefined();
    expect(slowSharedFrame('{"type":"pong"}')).toBeUndefined();
  });
});
