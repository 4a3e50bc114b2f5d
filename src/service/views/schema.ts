import { extendZodWithOpenApi, getOpenApiMetadata, getRefId } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

// The tools the view schemas are written with. A view schema is the one declaration of a public
// shape: its fields, their descriptions, and its name (`.openapi('Game')`). The name sits on the
// schema itself because a schema nested in another (a Seat in a Game) is referenced by the very
// instance its parent holds: a name added later, by a transport, would be on a copy the parent
// never sees. REST serves these schemas as they are; GraphQL takes their descriptions.
extendZodWithOpenApi(z);

export { z };

/**
 * `schema` or null. Not `.nullable()`: on a named (referenced) schema zod-to-openapi drops the
 * null, or wraps it in an allOf that a null fails. A union goes in as `z.lazy(() => union)`, or
 * zod-to-openapi flattens it into this one and its name is lost.
 */
export const orNull = <T extends z.ZodType>(schema: T) => z.union([schema, z.null()]);

/** A schema's inferred type, read-only all the way down (the service's views are never mutated). */
export type DeepReadonly<T> = T extends readonly (infer U)[]
  ? readonly DeepReadonly<U>[]
  : T extends object
    ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
    : T;

/** The view type a schema declares. */
export type ViewOf<S extends z.ZodType> = DeepReadonly<z.infer<S>>;

/** The description a schema was declared with (undefined for none). */
export function descriptionOf(schema: z.ZodType): string | undefined {
  return (getOpenApiMetadata(schema) as { description?: string }).description ?? schema.description;
}

/** The name a schema was declared with (`.openapi('Name')`), for transports that name types. */
export function nameOf(schema: z.ZodType): string | undefined {
  return getRefId(schema);
}
