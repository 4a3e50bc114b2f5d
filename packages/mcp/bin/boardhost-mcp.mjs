#!/usr/bin/env node
// boardhost-mcp: a Model Context Protocol server on stdin/stdout for MCP clients that start their
// servers as programs. It holds no tools of its own: it connects, as an MCP client, to a Boardhost
// server's /mcp (Streamable HTTP) with the account's API token, and forwards the tool list and every
// tool call there, so the tools are always the server's.
//
//   BOARDHOST_URL    the server, e.g. http://localhost:4000 (default) or https://boardhost.example
//   BOARDHOST_TOKEN  the account's API token (bhp_…), required
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const VERSION = '0.1.0';

const base = process.env.BOARDHOST_URL || 'http://localhost:4000';
const token = process.env.BOARDHOST_TOKEN;
if (!token) {
  process.stderr.write('boardhost-mcp: set BOARDHOST_TOKEN to an API token of your account (bhp_…)\n');
  process.exit(2);
}
const endpoint = new URL('/mcp', base);

const upstream = new Client({ name: 'boardhost-mcp', version: VERSION });
try {
  await upstream.connect(
    new StreamableHTTPClientTransport(endpoint, {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
} catch (error) {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`boardhost-mcp: cannot connect to ${endpoint.href}: ${message}\n`);
  process.exit(1);
}

const server = new Server(
  { name: 'boardhost', version: VERSION },
  { capabilities: { tools: {} }, instructions: upstream.getInstructions() },
);
// Calls under way: when stdin ends, their answers are still written before the process exits.
const pending = new Set();
const track = (promise) => {
  pending.add(promise);
  promise.finally(() => pending.delete(promise)).catch(() => undefined);
  return promise;
};
server.setRequestHandler(ListToolsRequestSchema, (request) => track(upstream.listTools(request.params)));
server.setRequestHandler(CallToolRequestSchema, (request) =>
  track(
    upstream.callTool(request.params).catch((error) => {
      // The server could not be reached or refused the request: a tool error the agent can read.
      const message = error instanceof Error ? error.message : String(error);
      return { isError: true, content: [{ type: 'text', text: `Boardhost at ${base}: ${message}` }] };
    }),
  ),
);
await server.connect(new StdioServerTransport());

const close = async () => {
  await Promise.allSettled([...pending]);
  // Let the transport write the last answers.
  await new Promise((resolve) => setTimeout(resolve, 0));
  await server.close().catch(() => undefined);
  await upstream.close().catch(() => undefined);
  process.exit(0);
};
process.stdin.on('end', close);
process.on('SIGTERM', close);
process.on('SIGINT', close);
