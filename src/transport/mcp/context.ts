import type { Services } from '../../service';
import type { Credential } from '../../service/accounts/auth';

/** What every tool of one MCP request works with: the services and who is calling. */
export interface McpContext {
  readonly services: Services;
  /** The caller's bearer token and address, handed to every service call (each one authorizes). */
  readonly credential: Credential;
  /** The caller's account id (seats name accounts by id). */
  readonly me: string;
  /** Where the rules pages are read from (the same pages /rules serves). */
  readonly rulesDir: string;
}
