// MCP clients for tests: the SDK's own Client over Streamable HTTP (against a running app) or over
// stdio (spawning the boardhost-mcp bin), and a helper that reads a tool result.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { join } from 'node:path';

/** The stdio bin of packages/mcp. */
export const MCP_BIN = join(__dirname, '..', '..', 'packages', 'mcp', 'bin', 'boardhost-mcp.mjs');

export interface ToolAnswer {
  readonly isError: boolean;
  /** structuredContent: the result, or the error's code, message and details. */
  readonly body: Record<string, any>;
  /** The text the model reads. */
  readonly text: string;
}

/** An MCP client of the app at `url`'s /mcp, with the token (none: no Authorization header). */
export async function httpClient(url: string, token?: string): Promise<Client> {
  const client = new Client({ name: 'test-agent', version: '1.0.0' });
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', url), { requestInit: { headers } }));
  return client;
}

/** An MCP client of the boardhost-mcp bin, spawned with BOARDHOST_URL and BOARDHOST_TOKEN. */
export async function stdioClient(url: string, token: string): Promise<Client> {
  const client = new Client({ name: 'test-agent-stdio', version: '1.0.0' });
  const env = { PATH: process.env.PATH ?? '', BOARDHOST_URL: url, BOARDHOST_TOKEN: token };
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: [MCP_BIN], env, stderr: 'pipe' }),
  );
  return client;
}

/** Calls a tool and reads its answer. */
export async function call(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<ToolAnswer> {
  const result = await client.callTool({ name, arguments: args });
  const content = result.content as Array<{ type: string; text?: string }>;
  return {
    isError: result.isError === true,
    body: (result.structuredContent ?? {}) as Record<string, any>,
    text: content.map((c) => c.text ?? '').join('\n'),
  };
}

/** Calls a tool that must succeed; its structured result. */
export async function must(client: Client, name: string, args: Record<string, unknown> = {}) {
  const answer = await call(client, name, args);
  if (answer.isError) throw new Error(`${name} failed: ${answer.text}`);
  return answer.body;
}
