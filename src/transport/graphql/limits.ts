import { ApolloArmor } from '@escape.tech/graphql-armor';
import {
  GraphQLError,
  Kind,
  parse,
  specifiedRules,
  validate,
  visit,
  type ASTVisitor,
  type DocumentNode,
  type GraphQLSchema,
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';
import { GameError } from '../../service/errors';

// The limits every GraphQL operation must pass, over HTTP and over graphql-ws alike: tokens while
// parsing, then depth, cost, aliases and directives while validating. A refusal is one GraphQL error
// with code QUERY_TOO_COMPLEX (HTTP 400), whose message names the limit and what was found.
//
// Depth and cost are graphql-armor's measures: depth counts fields and fragments from the root;
// cost is 1 per scalar and 2 per object field, each nested level weighing 1.5× more, and a field
// with a `first: N` literal multiplying its subtree by N. test/api/graphql-limits.test.ts holds the
// real queries these defaults were set from, with their measured depth and cost.

export interface GraphQLLimits {
  /** Deepest field nesting (fragments count one level). */
  readonly maxDepth: number;
  /** Highest cost (see above). */
  readonly maxCost: number;
  /** Most aliases in one operation. */
  readonly maxAliases: number;
  /** Most lexical tokens in one document. */
  readonly maxTokens: number;
}

export const DEFAULT_GRAPHQL_LIMITS: GraphQLLimits = {
  maxDepth: 12,
  maxCost: 50_000,
  maxAliases: 30,
  maxTokens: 4000,
};

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

/** The validation rules that enforce depth, cost, aliases, directives and the introspection shape. */
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
  return [...armor.validationRules, pageCostRule(limits.maxCost), introspectionShapeRule];
}

/**
 * graphql-armor's cost limit, with the page size of this API's lists counted: its measure multiplies
 * a field's subtree by a literal `first: N` (or `last`), and this API pages with `limit: N`. The
 * rule measures a copy of the operation in which `limit` is spelled `first`.
 */
function pageCostRule(maxCost: number): ValidationRule {
  const [costRule] = new ApolloArmor({
    blockFieldSuggestion: { enabled: false },
    maxTokens: { enabled: false },
    maxDepth: { enabled: false },
    maxAliases: { enabled: false },
    maxDirectives: { enabled: false },
    costLimit: {
      maxCost,
      ignoreIntrospection: true,
      propagateOnRejection: false,
      onReject: [(context, error) => context?.reportError(tooComplex(error.message, 'cost'))],
    },
  }).protect().validationRules;
  return (context) => ({
    Document(document) {
      const paged = visit(document, {
        Argument: (argument) =>
          argument.name.value === 'limit'
            ? { ...argument, name: { ...argument.name, value: 'first' } }
            : undefined,
      });
      for (const error of validate(context.getSchema(), paged, [costRule!])) context.reportError(error);
      return false;
    },
  });
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
 * Parses and validates one operation under the limits (what graphql-ws runs for every message);
 * the errors are ready to send: QUERY_TOO_COMPLEX for limits, GRAPHQL_PARSE_FAILED for syntax,
 * GRAPHQL_VALIDATION_FAILED for the rest.
 */
export function checkDocument(
  schema: GraphQLSchema,
  source: string,
  limits: GraphQLLimits,
  rules: readonly ValidationRule[],
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
  return { document };
}
