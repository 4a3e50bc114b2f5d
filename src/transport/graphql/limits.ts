import { ApolloArmor } from '@escape.tech/graphql-armor';
import {
  getOperationAST,
  getVariableValues,
  GraphQLError,
  Kind,
  parse,
  specifiedRules,
  TypeInfo,
  validate,
  visit,
  visitWithTypeInfo,
  type ArgumentNode,
  type ASTVisitor,
  type DocumentNode,
  type FieldNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';
import { longestMoveLimit } from '../../vocabulary';
import { MAX_BULK_PAIRS } from '../../service/challenges/bulks';
import { GameError } from '../../service/errors';
import { MAX_PLAYERS, MAX_SWISS_ROUNDS } from '../../service/tournaments/service';
import { MAX_WEBHOOKS_PER_ACCOUNT } from '../../service/delivery/webhooks';
import { CHAT_PAGE_DEFAULT } from '../../service/game/chat';

// The limits every GraphQL operation must pass, over HTTP and over graphql-ws alike: tokens while
// parsing, then depth, aliases and directives while validating, then cost once the operation and its
// variables are known (Apollo's didResolveOperation, graphql-ws' onSubscribe). A refusal is one
// GraphQL error with code QUERY_TOO_COMPLEX (HTTP 400), whose message names the limit and what was
// found. A query that runs then has a time and a response-size budget (budget.ts).
//
// Depth and cost are graphql-armor's measures: depth counts fields and fragments from the root;
// cost is 1 per scalar and 2 per object field, each nested level weighing 1.5× more, and a list
// multiplying its subtree by its size: the page size asked for (`limit`/`first`, a literal or a
// variable's value alike), else the page size the field answers by default, else the list's bound
// (LIST_SIZES). test/api/graphql-limits.test.ts holds the real queries these defaults were set
// from, with their measured depth and cost.

export interface GraphQLLimits {
  /** Deepest field nesting (fragments count one level). */
  readonly maxDepth: number;
  /** Highest cost (see above). */
  readonly maxCost: number;
  /** Most aliases in one operation. */
  readonly maxAliases: number;
  /** Most lexical tokens in one document. */
  readonly maxTokens: number;
  /** Largest answer to a query, in bytes of JSON (QUERY_BUDGET_EXCEEDED past it). */
  readonly maxResponseBytes: number;
  /** Longest a query may run, in milliseconds (QUERY_BUDGET_EXCEEDED past it). */
  readonly maxOperationMs: number;
}

export const DEFAULT_GRAPHQL_LIMITS: GraphQLLimits = {
  maxDepth: 12,
  maxCost: 50_000,
  maxAliases: 30,
  maxTokens: 4000,
  maxResponseBytes: 4 * 1024 * 1024,
  maxOperationMs: 2000,
};

/**
 * How many items a list field is costed at when no page size is given: a paged field's default
 * page size, an unpaged list's bound. Lists bounded by a game's rules to a handful (seats, pieces,
 * zones, kinds) count once.
 */
export const LIST_SIZES: Readonly<Record<string, number>> = {
  // Paged: the page answered without `limit` (`first`).
  'Query.games': 20,
  'Query.myGames': 20,
  'Query.myBulkPairings': 20,
  'Query.events': 100,
  'Query.webhookDeliveries': 50,
  'Query.appWebhookDeliveries': 50,
  'Query.tournaments': 20,
  'Query.myTournaments': 20,
  'Query.myBlocks': 50,
  'Query.leaderboard': 20,
  'Query.gameChat': CHAT_PAGE_DEFAULT,
  'Account.ratingHistory': 50,
  // Without `limit`, every move of the game: at most the longest move limit.
  'Game.moves': longestMoveLimit(),
  // Unpaged: the bound the service enforces.
  'BulkPairing.games': MAX_BULK_PAIRS,
  'Tournament.players': Math.max(...Object.values(MAX_PLAYERS)),
  'Standings.rows': Math.max(...Object.values(MAX_PLAYERS)),
  // A double round robin of the largest round-robin field, or every round of the largest Swiss one.
  'Tournament.pairings': Math.max(
    MAX_PLAYERS['round-robin'] * (MAX_PLAYERS['round-robin'] - 1),
    (MAX_PLAYERS.swiss / 2) * MAX_SWISS_ROUNDS,
  ),
  'Query.webhooks': MAX_WEBHOOKS_PER_ACCOUNT,
  'Query.appWebhooks': MAX_WEBHOOKS_PER_ACCOUNT,
  // Bounded by quotas only (active tokens, open challenges): costed as 100.
  'Query.myTokens': 100,
  'Query.myChallenges': 100,
};

/** The arguments that give a page size. */
const PAGE_ARGUMENTS = new Set(['limit', 'first', 'last']);

/**
 * Introspection (`__schema`, `__type`) is allowed whatever the depth and cost limits, since the
 * schema is public, but its shape is bounded instead: at most this many list fields nested in one
 * path (the standard introspection query nests three: types → fields → args) and this depth.
 */
const INTROSPECTION_MAX_LISTS = 3;
const INTROSPECTION_MAX_DEPTH = 16;
const INTROSPECTION_LISTS = new Set([
  'types',
  'fields',
  'args',
  'inputFields',
  'interfaces',
  'possibleTypes',
  'enumValues',
  'directives',
]);

/** The error of a refused operation: its GameError (QUERY_TOO_COMPLEX) is the original error. */
export function tooComplex(message: string, limit: string): GraphQLError {
  const text = message.replace(/^Syntax Error:\s*/, '');
  const original = new GameError('QUERY_TOO_COMPLEX', text, { limit });
  return new GraphQLError(text, {
    originalError: original,
    extensions: { code: 'QUERY_TOO_COMPLEX', limit },
  });
}

const TOKEN_LIMIT = /Document contains more tha[nt] (\d+) tokens/;

/** True for the error graphql-js' parser throws when a document has more than `maxTokens` tokens. */
export function isTokenLimitError(error: unknown): error is GraphQLError {
  return error instanceof GraphQLError && TOKEN_LIMIT.test(error.message);
}

/** The parser's token-limit error as QUERY_TOO_COMPLEX. */
export function tokenLimitError(error: GraphQLError): GraphQLError {
  const max = TOKEN_LIMIT.exec(error.message)?.[1] ?? '?';
  return tooComplex(`Token limit of ${max} exceeded.`, 'tokens');
}

/**
 * The validation rules that enforce depth, aliases, directives and the introspection shape. Cost
 * needs the variables: see costError.
 */
export function limitRules(limits: GraphQLLimits): ValidationRule[] {
  const report =
    (limit: string) =>
    (context: ValidationContext | null, error: GraphQLError): void =>
      context?.reportError(tooComplex(error.message, limit));
  const armor = new ApolloArmor({
    blockFieldSuggestion: { enabled: false },
    maxTokens: { enabled: false },
    maxDepth: {
      n: limits.maxDepth,
      ignoreIntrospection: true,
      propagateOnRejection: false,
      onReject: [report('depth')],
    },
    costLimit: { enabled: false },
    maxAliases: { n: limits.maxAliases, propagateOnRejection: false, onReject: [report('aliases')] },
    maxDirectives: { n: 50, propagateOnRejection: false, onReject: [report('directives')] },
  }).protect();
  return [...armor.validationRules, introspectionShapeRule];
}

/** What graphql-armor's cost rule last measured (it reports through a callback, synchronously). */
let measured = 0;
const [armorCostRule] = new ApolloArmor({
  blockFieldSuggestion: { enabled: false },
  maxTokens: { enabled: false },
  maxDepth: { enabled: false },
  maxAliases: { enabled: false },
  maxDirectives: { enabled: false },
  costLimit: {
    maxCost: Number.MAX_VALUE,
    ignoreIntrospection: true,
    propagateOnRejection: false,
    onAccept: [(_context, details: { n: number }) => (measured = details.n)],
  },
}).protect().validationRules;

/**
 * The cost of the operation `operationName` of a valid document run with `variables` (graphql-
 * armor's measure, every list sized as the module comment says); undefined when the operation
 * cannot run (no such operation, variables that do not coerce: execution refuses it anyway).
 */
export function operationCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName?: string | null,
  variables?: Readonly<Record<string, unknown>> | null,
): number | undefined {
  const operation = getOperationAST(document, operationName);
  if (!operation) return undefined;
  // A cost depends on the document, the operation and the page sizes alone: measured once for
  // each (Apollo hands the same DocumentNode to every request of one query text), so an ordinary
  // request costs one map lookup instead of a validation pass.
  const key = [
    operationName ?? '',
    ...pageVariablesOf(document).map((name) => JSON.stringify(variables?.[name] ?? null)),
  ].join('\u0000');
  let known = costs.get(document);
  const cached = known?.get(key);
  if (cached !== undefined) return cached;
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], variables ?? {}, {
    maxErrors: 1,
  });
  // Not kept: variables that do not coerce say nothing of the next request's.
  if (coerced.errors) return undefined;
  measured = 0;
  validate(schema, sizedDocument(schema, document, operation, coerced.coerced), [armorCostRule!]);
  if (!known) costs.set(document, (known = new Map()));
  if (known.size < MAX_COSTS_PER_DOCUMENT) known.set(key, measured);
  return measured;
}

/** Measured costs per document, by operation name and page-size variable values. */
const costs = new WeakMap<DocumentNode, Map<string, number>>();
/** Page sizes one document is measured with at most before its costs are no longer kept. */
const MAX_COSTS_PER_DOCUMENT = 64;
/** Per document, the variables that give a page size (`limit: $n`): the only ones cost reads. */
const pageVariables = new WeakMap<DocumentNode, readonly string[]>();

function pageVariablesOf(document: DocumentNode): readonly string[] {
  let names = pageVariables.get(document);
  if (!names) {
    const found = new Set<string>();
    visit(document, {
      Argument(node) {
        if (PAGE_ARGUMENTS.has(node.name.value) && node.value.kind === Kind.VARIABLE)
          found.add(node.value.name.value);
      },
    });
    pageVariables.set(document, (names = [...found]));
  }
  return names;
}

/** QUERY_TOO_COMPLEX (`limit: cost`) when the operation costs more than `maxCost`. */
export function costError(
  schema: GraphQLSchema,
  document: DocumentNode,
  maxCost: number,
  operationName?: string | null,
  variables?: Readonly<Record<string, unknown>> | null,
): GraphQLError | undefined {
  const cost = operationCost(schema, document, operationName, variables);
  if (cost === undefined || cost <= maxCost) return undefined;
  return tooComplex(`Query Cost limit of ${maxCost} exceeded, found ${cost}.`, 'cost');
}

/**
 * The operation (with the document's fragments) as graphql-armor measures it: each list field
 * carries its size as a literal `first: N`, from its `limit`/`first` argument (a literal or the
 * variable's value) or LIST_SIZES.
 */
function sizedDocument(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  values: Readonly<Record<string, unknown>>,
): DocumentNode {
  const typeInfo = new TypeInfo(schema);
  const definitions = document.definitions.filter(
    (d) => d === operation || d.kind === Kind.FRAGMENT_DEFINITION,
  );
  return visit(
    { ...document, definitions },
    visitWithTypeInfo(typeInfo, {
      Field(node): FieldNode | undefined {
        const parent = typeInfo.getParentType();
        const bound = parent ? LIST_SIZES[`${parent.name}.${node.name.value}`] : undefined;
        const page = node.arguments?.find((a) => PAGE_ARGUMENTS.has(a.name.value));
        if (bound === undefined && !page) return undefined;
        const size = pageSize(page, values) ?? bound;
        const others = (node.arguments ?? []).filter((a) => !PAGE_ARGUMENTS.has(a.name.value));
        const first: ArgumentNode[] =
          size === undefined
            ? []
            : [
                {
                  kind: Kind.ARGUMENT,
                  name: { kind: Kind.NAME, value: 'first' },
                  value: { kind: Kind.INT, value: String(Math.max(1, Math.trunc(size))) },
                },
              ];
        return { ...node, arguments: [...others, ...first] };
      },
    }),
  );
}

/** The page size an argument asks for: its literal, or its variable's value; undefined: none. */
function pageSize(argument: ArgumentNode | undefined, values: Readonly<Record<string, unknown>>) {
  const value = argument?.value;
  if (value?.kind === Kind.INT) return Number.parseInt(value.value, 10);
  if (value?.kind === Kind.VARIABLE) {
    const given = values[value.name.value];
    return typeof given === 'number' && Number.isFinite(given) ? given : undefined;
  }
  return undefined;
}

/** Bounds introspection by list nesting and depth (see INTROSPECTION_MAX_LISTS). */
const introspectionShapeRule: ValidationRule = (context) => {
  const measure = (set: SelectionSetNode, depth: number, lists: number, seen: Set<string>): boolean => {
    if (depth > INTROSPECTION_MAX_DEPTH || lists > INTROSPECTION_MAX_LISTS) return false;
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        if (!selection.selectionSet) continue;
        const list = INTROSPECTION_LISTS.has(selection.name.value) ? 1 : 0;
        if (!measure(selection.selectionSet, depth + 1, lists + list, seen)) return false;
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        if (!measure(selection.selectionSet, depth, lists, seen)) return false;
      } else {
        const name = selection.name.value;
        const fragment = context.getFragment(name);
        // A fragment cycle is reported by the standard rules; do not follow it.
        if (!fragment || seen.has(name)) continue;
        const inner = new Set(seen).add(name);
        if (!measure(fragment.selectionSet, depth, lists, inner)) return false;
      }
    }
    return true;
  };
  const visitor: ASTVisitor = {
    Field(node) {
      if ((node.name.value === '__schema' || node.name.value === '__type') && node.selectionSet) {
        if (!measure(node.selectionSet, 1, 0, new Set())) {
          context.reportError(
            tooComplex(
              `Introspection may nest at most ${INTROSPECTION_MAX_LISTS} lists and ${INTROSPECTION_MAX_DEPTH} levels.`,
              'introspection',
            ),
          );
        }
        return false;
      }
      return undefined;
    },
  };
  return visitor;
};

/**
 * Parses and validates one operation under the limits, its cost with its variables included (what
 * graphql-ws runs for every message); the errors are ready to send: QUERY_TOO_COMPLEX for limits,
 * GRAPHQL_PARSE_FAILED for syntax, GRAPHQL_VALIDATION_FAILED for the rest.
 */
export function checkDocument(
  schema: GraphQLSchema,
  source: string,
  limits: GraphQLLimits,
  rules: readonly ValidationRule[],
  operation: { operationName?: string | null; variables?: Readonly<Record<string, unknown>> | null } = {},
): { document: DocumentNode } | { errors: GraphQLError[] } {
  let document: DocumentNode;
  try {
    document = parse(source, { maxTokens: limits.maxTokens });
  } catch (error) {
    if (isTokenLimitError(error)) return { errors: [tokenLimitError(error)] };
    const message = error instanceof GraphQLError ? error.message : 'Syntax Error';
    return { errors: [new GraphQLError(message, { extensions: { code: 'GRAPHQL_PARSE_FAILED' } })] };
  }
  const errors = validate(schema, document, [...specifiedRules, ...rules]);
  if (errors.length > 0) {
    return {
      errors: errors.map((e) =>
        e.extensions.code
          ? e
          : new GraphQLError(e.message, {
              nodes: e.nodes,
              extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
            }),
      ),
    };
  }
  const tooCostly = costError(schema, document, limits.maxCost, operation.operationName, operation.variables);
  if (tooCostly) return { errors: [tooCostly] };
  return { document };
}
