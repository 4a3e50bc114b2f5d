// The game subscriptions' selections run once per event and operation for every subscriber of a
// node; other subscriptions run per subscriber; stopping a subscription stops its source at once.
import {
  GraphQLID,
  GraphQLInt,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLSchema,
  parse,
  type ExecutionResult,
} from 'graphql';
import { isSharedResult, sharedKey, subscribeShared } from '../../src/transport/graphql/shared-execution';

interface Event {
  readonly n: number;
}

/** The events every subscription gets (the same objects, as GameWatchers hands out), and the stops. */
class Source {
  readonly subscribers: Array<(event: Event) => void> = [];
  stopped = 0;

  iterator(): AsyncIterableIterator<Event> {
    const queue: Event[] = [];
    let wake: (() => void) | undefined;
    let done = false;
    this.subscribers.push((event) => {
      queue.push(event);
      wake?.();
    });
    const iterator: AsyncIterableIterator<Event> = {
      next: async () => {
        while (queue.length === 0 && !done) await new Promise<void>((resolve) => (wake = resolve));
        return done ? { done: true, value: undefined } : { done: false, value: queue.shift() as Event };
      },
      return: async () => {
        done = true;
        this.stopped++;
        wake?.();
        return { done: true, value: undefined };
      },
      [Symbol.asyncIterator]: () => iterator,
    };
    return iterator;
  }

  emit(event: Event): void {
    for (const subscriber of this.subscribers) subscriber(event);
  }
}

let resolved = 0;
let source: Source;

const Game = new GraphQLObjectType({
  name: 'Game',
  fields: {
    n: {
      type: GraphQLInt,
      resolve: (event: Event) => {
        resolved++;
        return event.n;
      },
    },
  },
});

const field = {
  type: Game,
  args: { id: { type: new GraphQLNonNull(GraphQLID) } },
  subscribe: () => source.iterator(),
  resolve: (event: Event) => event,
};

const schema = new GraphQLSchema({
  query: new GraphQLObjectType({ name: 'Query', fields: { ok: { type: GraphQLInt } } }),
  subscription: new GraphQLObjectType({
    name: 'Subscription',
    fields: { gameUpdated: field, other: field },
  }),
});

const GAME = 'subscription ($id: ID!) { gameUpdated(id: $id) { n } }';

async function start(
  text: string,
  variables: Record<string, unknown>,
): Promise<AsyncIterableIterator<ExecutionResult>> {
  const result = await subscribeShared({
    schema,
    document: parse(text),
    variableValues: variables,
    contextValue: {},
  });
  if (!(Symbol.asyncIterator in result)) throw new Error(JSON.stringify(result));
  return result;
}

beforeEach(() => {
  resolved = 0;
  source = new Source();
});

describe('subscribeShared', () => {
  it('runs a game subscription once per event for every subscriber that sent the same operation', async () => {
    const a = await start(GAME, { id: 'g1' });
    const b = await start(GAME, { id: 'g1' });
    const other = await start(GAME, { id: 'g2' });
    for (const n of [1, 2]) {
      source.emit({ n });
      const [first, second, third] = await Promise.all([a.next(), b.next(), other.next()]);
      expect(first.value).toEqual({ data: { gameUpdated: { n } } });
      expect(second.value).toBe(first.value);
      // Other variables: their own run.
      expect(third.value).toEqual(first.value);
      expect(third.value).not.toBe(first.value);
    }
    expect(resolved).toBe(4);
  });

  it('marks the results it shares, and only those', async () => {
    const shared = await start(GAME, { id: 'g1' });
    const own = await start('subscription ($id: ID!) { other(id: $id) { n } }', { id: 'g1' });
    source.emit({ n: 1 });
    const [a, b] = await Promise.all([shared.next(), own.next()]);
    expect(isSharedResult(a.value as ExecutionResult)).toBe(true);
    expect(isSharedResult(b.value as ExecutionResult)).toBe(false);
  });

  it('runs other subscriptions per subscriber', async () => {
    const text = 'subscription ($id: ID!) { other(id: $id) { n } }';
    const a = await start(text, { id: 'g1' });
    const b = await start(text, { id: 'g1' });
    source.emit({ n: 1 });
    const [first, second] = await Promise.all([a.next(), b.next()]);
    expect(second.value).toEqual(first.value);
    expect(second.value).not.toBe(first.value);
    expect(resolved).toBe(2);
  });

  it('stops the source when the subscriber stops, even while no event comes', async () => {
    const a = await start(GAME, { id: 'g1' });
    const waiting = a.next();
    await a.return?.();
    expect(source.stopped).toBe(1);
    await expect(waiting).resolves.toEqual({ done: true, value: undefined });
  });

  it('shares only one subscription to gameUpdated or tv', () => {
    const key = (text: string) => sharedKey({ schema, document: parse(text), variableValues: { id: 'g' } });
    expect(key(GAME)).toBeDefined();
    expect(key('subscription { tv(kind: "kalah") { id } }')).toBeDefined();
    expect(key('subscription ($id: ID!) { other(id: $id) { n } }')).toBeUndefined();
    expect(key('query { ok }')).toBeUndefined();
    expect(
      key('subscription ($id: ID!) { ...F } fragment F on Subscription { gameUpdated(id: $id) { n } }'),
    ).toBeUndefined();
    expect(key(GAME)).not.toBe(sharedKey({ schema, document: parse(GAME), variableValues: { id: 'h' } }));
  });
});
