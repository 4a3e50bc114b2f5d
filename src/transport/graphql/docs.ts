import type { z } from 'zod';
import { descriptionOf } from '../../service/views/schema';

// GraphQL descriptions taken from the view schemas (src/service/views), where each public shape and
// its descriptions are declared once. GraphQL descriptions are sentences: each ends with a period.

/** A view schema's description (with `more` after it, when given), as GraphQL writes it. */
export function doc(schema: z.ZodType, more?: string): string | undefined {
  const own = descriptionOf(schema);
  const text = own !== undefined && more ? `${own} ${more}` : own;
  return text === undefined || /[.!?]$/.test(text) ? text : `${text}.`;
}

/** The descriptions of an object view's fields, by field name. */
export function docs<Shape extends z.ZodRawShape>(
  schema: z.ZodObject<Shape>,
): { readonly [K in keyof Shape]: string | undefined } {
  return Object.fromEntries(
    Object.entries(schema.shape).map(([name, field]) => [name, doc(field as z.ZodType)]),
  ) as { readonly [K in keyof Shape]: string | undefined };
}
