import 'reflect-metadata';
import { printSchema } from 'graphql';
import { createServices } from './service';
import { createMemoryStorage } from './store/memory';
import { buildGameSchema } from './transport/graphql/server';
import { buildOpenApiDocument } from './transport/rest/openapi';
import { restRoutes } from './transport/rest/routes';

// The two committed contracts, generated from code: `npm run schema` / `npm run openapi` write them,
// and test/contracts.test.ts fails when the committed files differ.

export const SCHEMA_FILE = 'schema/schema.graphql';
export const OPENAPI_FILE = 'openapi/openapi.json';

/** The GraphQL SDL as emitted from the type-graphql classes. */
export async function graphqlSchemaText(): Promise<string> {
  return `${printSchema(await buildGameSchema())}\n`;
}

/** The OpenAPI document as generated from the REST route table. */
export function openApiText(): string {
  const routes = restRoutes(createServices(createMemoryStorage()));
  return `${JSON.stringify(buildOpenApiDocument(routes), null, 2)}\n`;
}
