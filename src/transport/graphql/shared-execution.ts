import {
  createSourceEventStream,
  execute,
  getOperationAST,
  Kind,
  subscribe,
  type ExecutionArgs,
  type ExecutionResult,
} from 'graphql';

// graphql-ws runs a subscription's selection once per event and subscriber. The game subscriptions
// hand every subscriber of a node the same object for a version (GameUpdate.root), and what they
// select from it does not depend on who asks: so the selection runs once per version and operation
// (the same document text, operation name and variables) on a node, and every subscriber that sent
// that operation gets the same result (graphql-ws still serializes it once per socket, with the
// subscription's id). Other subscriptions run as graphql.subscribe runs them.

/** Root subscription fields whose result depends only on the event and the operation, never on the context. */
const SHARED_ROOT_FIELDS: ReadonlySet<string> = new Set(['gameUpdated', 'tv']);

type Outcome = ExecutionResult | Promise<ExecutionResult>;

/** Per event (a version's object), its results by operation key; an event's entries go with it. */
const executions = new WeakMap<object, Map<string, Outcome>>();
/** The results handed to every subscriber of their operation (shared-frames.ts encodes them once). */
const sharedResults = new WeakSet<ExecutionResult>();

/** Whether `result` is one shared by every subscriber of its operation on this node. */
export function isSharedResult(result: ExecutionResult): boolean {
  return sharedResults.has(result);
}

/**
 * The key under which subscribers of `args` share results: the operation's text, name and variables;
 * undefined when the operation is not one subscription to a shared root field (or its text is unknown).
 */
export function sharedKey(args: ExecutionArgs): string | undefined {
  const operation = getOperationAST(args.document, args.operationName);
  const selections = operation?.operation === 'subscription' ? operation.selectionSet.selections : [];
  const [root] = selections;
  if (selections.length !== 1 || root?.kind !== Kind.FIELD || !SHARED_ROOT_FIELDS.has(root.name.value)) {
    return undefined;
  }
  const text = args.document.loc?.source.body;
  if (text === undefined) return undefined;
  return intern(JSON.stringify([text, args.operationName ?? null, args.variableValues ?? null]));
}

/** Keys in use, so that every subscriber of an operation holds the same string (bounded: see intern). */
const keys = new Map<string, string>();
const MAX_KEYS = 10_000;

/**
 * `key` as the one string all subscribers of its operation hold (each idle subscription keeps its
 * key, ~150 B, for as long as it lasts). The table starts over when full: a key not found is
 * simply a string of its own.
 */
function intern(key: string): string {
  const known = keys.get(key);
  if (known !== undefined) return known;
  if (keys.size >= MAX_KEYS) keys.clear();
  keys.set(key, key);
  return key;
}

/** graphql.subscribe, with the results of shared subscriptions (see above) computed once per event and key. */
export async function subscribeShared(
  args: ExecutionArgs,
): Promise<AsyncIterableIterator<ExecutionResult> | ExecutionResult> {
  const key = sharedKey(args);
  if (key === undefined) return subscribe(args);
  const source = await createSourceEventStream(args);
  if (!(Symbol.asyncIterator in source)) return source;
  return mapEvents(source, (event) => resultOf(event, key, args));
}

function resultOf(event: unknown, key: string, args: ExecutionArgs): Outcome {
  if (typeof event !== 'object' || event === null) return execute({ ...args, rootValue: event });
  let results = executions.get(event);
  if (!results) {
    results = new Map();
    executions.set(event, results);
  }
  let outcome = results.get(key);
  if (outcome === undefined) {
    outcome = execute({ ...args, rootValue: event });
    if (outcome instanceof Promise)
      void outcome.then(
        (result) => sharedResults.add(result),
        () => undefined,
      );
    else sharedResults.add(outcome);
    results.set(key, outcome);
  }
  return outcome;
}

/**
 * `source`'s events mapped by `map`, as graphql.subscribe maps them: return() and throw() reach the
 * source at once (the subscription stops even while no event comes), and a failed map ends it.
 */
function mapEvents<T, U>(
  source: AsyncIterable<T>,
  map: (event: T) => U | Promise<U>,
): AsyncIterableIterator<U> {
  return new MappedEvents(source[Symbol.asyncIterator](), map);
}

/**
 * The iterator of mapEvents: a class, so that each subscription (idle for hours, thousands on a
 * node) holds two fields rather than a closure per method.
 */
class MappedEvents<T, U> implements AsyncIterableIterator<U> {
  constructor(
    private readonly iterator: AsyncIterator<T>,
    private readonly map: (event: T) => U | Promise<U>,
  ) {}

  async next(): Promise<IteratorResult<U>> {
    return this.mapped(await this.iterator.next());
  }

  async return(): Promise<IteratorResult<U>> {
    return this.iterator.return
      ? this.mapped(await this.iterator.return())
      : { done: true, value: undefined };
  }

  async throw(error?: unknown): Promise<IteratorResult<U>> {
    if (this.iterator.throw) return this.mapped(await this.iterator.throw(error));
    throw error;
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<U> {
    return this;
  }

  private async mapped(result: IteratorResult<T>): Promise<IteratorResult<U>> {
    if (result.done) return { done: true, value: undefined };
    try {
      return { done: false, value: await this.map(result.value) };
    } catch (error) {
      await this.iterator.return?.().catch(() => undefined);
      throw error;
    }
  }
}
