import {
  defaultFieldResolver,
  getNamedType,
  getNullableType,
  getOperationAST,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  type DocumentNode,
  type FormattedExecutionResult,
  type GraphQLFormattedError,
  type GraphQLSchema,
} from 'graphql';
import { performance } from 'node:perf_hooks';
import type { GraphQLLimits } from './limits';

// A query's budgets, over HTTP and graphql-ws alike: a time budget and a response-size budget. An
// answer over either is replaced by one QUERY_BUDGET_EXCEEDED error. Past the deadline the rest of
// the query is cut short without an error thrown: every list field answers [] and every nullable
// field null (a resolver that throws while a sibling's promise is pending leaves that promise's
// later rejection unhandled in graphql-js, which would end the process), so the query finishes at
// once with what it had and the whole answer is then the error.
// Mutations and subscription events have none: a mutation's effects must be answered, and the cost
// limit bounds both. The cost limit refuses costly operations before they run; these budgets bound
// what gets past it (a slow store, a large game).

/** A running query's deadline (performance.now() milliseconds); fields count between clock reads. */
export interface OperationBudget {
  readonly deadline: number;
  readonly maxMs: number;
  fields: number;
  /** Set once a field started past the deadline. */
  exceeded: boolean;
}

/** The budget of a query starting now; undefined for mutations and subscriptions. */
export function startBudget(
  document: DocumentNode,
  operationName: string | null | undefined,
  limits: GraphQLLimits,
): OperationBudget | undefined {
  if (!isQuery(document, operationName)) return undefined;
  const maxMs = limits.maxOperationMs;
  return { deadline: performance.now() + maxMs, maxMs, fields: 0, exceeded: false };
}

export function isQuery(document: DocumentNode, operationName: string | null | undefined): boolean {
  return getOperationAST(document, operationName)?.operation === 'query';
}

/** The clock is read every this many fields (a read costs about as much as a field). */
const FIELDS_PER_CLOCK_READ = 16;

/**
 * Makes every field of the schema check its operation's budget (`context.budget`) before it
 * resolves; past the deadline a list answers [] and a nullable field null, without resolving.
 */
export function enforceTimeBudget(schema: GraphQLSchema): void {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      // A leaf read off its parent (a scalar or enum without a resolver of its own) takes no time:
      // only fields that resolve or fan out are checked (a wrapper on every field slowed mutations).
      if (!field.resolve && isLeafType(getNamedType(field.type))) continue;
      const resolve = field.resolve ?? defaultFieldResolver;
      const list = isListType(getNullableType(field.type));
      const nullable = !isNonNullType(field.type);
      field.resolve = (source, args, context: { budget?: OperationBudget } | undefined, info) => {
        const budget = context?.budget;
        if (
          budget &&
          (budget.exceeded ||
            (++budget.fields % FIELDS_PER_CLOCK_READ === 0 && performance.now() > budget.deadline))
        ) {
          budget.exceeded = true;
          if (list) return [];
          if (nullable) return null;
        }
        return resolve(source, args, context, info);
      };
    }
  }
}

export const BUDGET_CODE = 'QUERY_BUDGET_EXCEEDED';

function timeBudgetError(maxMs: number): GraphQLFormattedError {
  return {
    message: `The query ran longer than its ${maxMs} ms budget; ask for fewer items or smaller pages`,
    extensions: { limit: 'time', max: maxMs, code: BUDGET_CODE },
  };
}

function sizeBudgetError(maxBytes: number): GraphQLFormattedError {
  return {
    message: `The answer is larger than its ${maxBytes}-byte budget; ask for fewer items or smaller pages`,
    extensions: { limit: 'responseBytes', max: maxBytes, code: BUDGET_CODE },
  };
}

/**
 * A query's formatted answer within its budgets: one QUERY_BUDGET_EXCEEDED error (no data) if it
 * ran past its deadline or the answer is larger than maxResponseBytes; else unchanged.
 */
export function withinBudget(
  result: FormattedExecutionResult,
  limits: GraphQLLimits,
  budget: OperationBudget | undefined,
): FormattedExecutionResult {
  if (budget?.exceeded) return { errors: [timeBudgetError(budget.maxMs)] };
  if (Buffer.byteLength(JSON.stringify(result)) > limits.maxResponseBytes) {
    return { errors: [sizeBudgetError(limits.maxResponseBytes)] };
  }
  return result;
}
