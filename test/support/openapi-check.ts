// Checks live answers of the server against openapi/openapi.json with a JSON Schema validator (ajv,
// draft 2020-12 as OpenAPI 3.1 uses): the status must be documented for the operation, the
// Content-Type must be one of the status's media types, the body must match its schema, and every
// documented response header must be there when required and match its schema when present.
// Streamed media types (SSE, NDJSON) are checked item by item against the same schema (the
// document describes one item, as OpenAPI 3.2 itemSchema does). Every check is recorded, so that a
// test can tell which operations it never exercised.
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readStream } from './stream-reader';

type Json = Record<string, any>;

export const OPENAPI: Json = JSON.parse(
  readFileSync(join(__dirname, '..', '..', 'openapi', 'openapi.json'), 'utf8'),
);

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

export interface Operation {
  readonly operationId: string;
  readonly method: string;
  /** The path template, e.g. /api/v1/games/{id}. */
  readonly path: string;
  readonly spec: Json;
}

/** Every operation of the document's paths. */
export function operations(doc: Json = OPENAPI): Operation[] {
  return Object.entries(doc.paths as Json).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((method) => ({
      operationId: item[method].operationId as string,
      method,
      path,
      spec: item[method] as Json,
    })),
  );
}

/** An answer as the checker sees it. */
export interface Answer {
  readonly status: number;
  readonly headers: Headers;
  /** The parsed JSON body, the text of a text body, undefined when empty. */
  readonly body: unknown;
}

const pointer = (...parts: string[]) =>
  `openapi.json#/${parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;

export class OpenApiChecker {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  private readonly compiled = new Map<string, ValidateFunction>();
  private readonly templates: Array<{ op: Operation; pattern: RegExp; params: number }>;
  /** operationId → the statuses seen. */
  readonly seen = new Map<string, Set<number>>();

  constructor(readonly doc: Json = OPENAPI) {
    addFormats(this.ajv);
    this.ajv.addSchema(doc, 'openapi.json');
    this.templates = operations(doc).map((op) => ({
      op,
      pattern: new RegExp(`^${op.path.replace(/\{\w+\}/g, '[^/]+')}$`),
      params: (op.path.match(/\{/g) ?? []).length,
    }));
  }

  /** The operation a request hits: the template with the fewest parameters that matches. */
  operationOf(method: string, url: string): Operation {
    const path = new URL(url, 'http://x').pathname;
    const match = this.templates
      .filter((t) => t.op.method === method.toLowerCase() && t.pattern.test(path))
      .sort((a, b) => a.params - b.params)[0];
    if (!match) throw new Error(`${method} ${path} is no operation of the OpenAPI document`);
    return match.op;
  }

  /** Validates `value` against the schema at `ref` (a pointer into the document). */
  validate(ref: string, value: unknown, what: string): void {
    let check = this.compiled.get(ref);
    if (!check) {
      check = this.ajv.compile({ $ref: ref });
      this.compiled.set(ref, check);
    }
    if (!check(value)) {
      throw new Error(
        `${what} does not match ${ref}: ${this.ajv.errorsText(check.errors, { separator: '\n  ' })}\n` +
          `value: ${JSON.stringify(value).slice(0, 2000)}`,
      );
    }
  }

  /** Follows a `$ref` to components (responses, headers). */
  private deref(object: Json): Json {
    if (typeof object.$ref !== 'string') return object;
    const parts = (object.$ref as string).replace(/^#\//, '').split('/');
    const target = parts.reduce((o: Json, p) => o[p.replace(/~1/g, '/').replace(/~0/g, '~')], this.doc);
    return { ...target, ...object, $ref: undefined };
  }

  /**
   * Checks one answer of `method url`; returns the media type it was checked as. `item` marks a
   * stream: the body is then not checked here (each item goes through `checkItem`).
   */
  check(method: string, url: string, answer: Answer, stream = false): { op: Operation; mediaType?: string } {
    const op = this.operationOf(method, url);
    const what = `${op.operationId} (${method.toUpperCase()} ${url}) answered ${answer.status}`;
    const response = op.spec.responses[String(answer.status)];
    if (!response) {
      throw new Error(`${what}, which the document does not list: ${JSON.stringify(answer.body)}`);
    }
    const resolved = this.deref(response);
    for (const [name, header] of Object.entries((resolved.headers ?? {}) as Json)) {
      const spec = this.deref(header as Json);
      const value = answer.headers.get(name);
      if (value === null) {
        if (spec.required) throw new Error(`${what} without its required header ${name}`);
        continue;
      }
      if (spec.schema) this.validateInline(spec.schema, value, `${what}: header ${name}`);
    }
    this.record(op.operationId, answer.status);
    const content = (resolved.content ?? {}) as Json;
    const types = Object.keys(content);
    if (types.length === 0) {
      if (answer.body !== undefined && answer.body !== '')
        throw new Error(`${what} with a body it does not document`);
      return { op };
    }
    const contentType = (answer.headers.get('content-type') ?? '').split(';')[0]?.trim() ?? '';
    if (!types.includes(contentType)) {
      throw new Error(`${what} as ${contentType || 'no Content-Type'}; documented: ${types.join(', ')}`);
    }
    const statusRef = response.$ref
      ? pointer(...(response.$ref as string).replace(/^#\//, '').split('/'))
      : pointer('paths', op.path, op.method, 'responses', String(answer.status));
    const schemaRef = `${statusRef}/content/${contentType.replace(/~/g, '~0').replace(/\//g, '~1')}/schema`;
    if (!stream) this.validate(schemaRef, answer.body, what);
    return { op, mediaType: schemaRef };
  }

  /** Checks one item of a stream against the schema `check` returned for it. */
  checkItem(schemaRef: string, item: unknown, what: string): void {
    this.validate(schemaRef, item, `${what}: stream item`);
  }

  /** Checks a webhook request Boardhost sent against the document's `webhooks`. */
  checkWebhook(name: string, headers: Record<string, string | string[] | undefined>, body: unknown): void {
    const op = this.doc.webhooks[name].post as Json;
    for (const param of op.parameters ?? []) {
      if (param.in !== 'header') continue;
      const value = headers[String(param.name).toLowerCase()];
      if (value === undefined) {
        if (param.required) throw new Error(`webhook ${name} without its header ${param.name}`);
        continue;
      }
      this.validateInline(param.schema, value, `webhook ${name}: header ${param.name}`);
    }
    this.validate(
      pointer('webhooks', name, 'post', 'requestBody', 'content', 'application/json', 'schema'),
      body,
      `webhook ${name} body`,
    );
    this.record(op.operationId as string, 200);
  }

  private validateInline(schema: Json, value: unknown, what: string): void {
    const key = JSON.stringify(schema);
    let check = this.compiled.get(key);
    if (!check) {
      check = this.ajv.compile(schema);
      this.compiled.set(key, check);
    }
    if (!check(value))
      throw new Error(`${what} (${JSON.stringify(value)}): ${this.ajv.errorsText(check.errors)}`);
  }

  private record(operationId: string, status: number): void {
    const statuses = this.seen.get(operationId) ?? new Set<number>();
    statuses.add(status);
    this.seen.set(operationId, statuses);
  }
}

export interface CallOptions {
  readonly token?: string;
  readonly body?: unknown;
  /** A raw body, sent with `contentType`. */
  readonly raw?: string;
  readonly contentType?: string;
  readonly headers?: Record<string, string>;
}

/** A REST client whose every answer goes through `checker`. */
export function checkedClient(base: string, checker: OpenApiChecker) {
  async function call(method: string, path: string, options: CallOptions = {}): Promise<Answer> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body: string | undefined;
    if (options.raw !== undefined) {
      body = options.raw;
      headers['content-type'] = options.contentType ?? 'text/plain';
    } else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] = 'application/json';
    }
    // A stream answered where none was expected fails by timeout instead of hanging the test.
    // Upper case: fetch normalizes only some methods, and node's server refuses a lower-case PATCH.
    const res = await fetch(`${base}${path}`, {
      method: method.toUpperCase(),
      headers,
      body,
      signal: AbortSignal.timeout(10_000),
    });
    const text = await res.text();
    const type = res.headers.get('content-type') ?? '';
    if (type.startsWith('application/x-ndjson')) {
      const items = text
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line) as unknown);
      const answer = { status: res.status, headers: res.headers, body: items };
      const { mediaType } = checker.check(method, path, answer, true);
      for (const item of items) checker.checkItem(mediaType as string, item, `${method} ${path}`);
      return answer;
    }
    const parsed = text === '' ? undefined : /json/.test(type) ? (JSON.parse(text) as unknown) : text;
    const answer = { status: res.status, headers: res.headers, body: parsed };
    checker.check(method, path, answer);
    return answer;
  }

  /** Opens a stream (200 expected); each item read is checked against the document. */
  async function stream(path: string, accept: string, token?: string, headers: Record<string, string> = {}) {
    const reader = await readStream(`${base}${path}`, {
      accept,
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...headers,
    });
    const { mediaType } = checker.check(
      'get',
      path,
      { status: reader.response.status, headers: reader.response.headers, body: undefined },
      true,
    );
    return {
      async next(timeoutMs?: number) {
        const item = await reader.next(timeoutMs);
        checker.checkItem(mediaType as string, item, `GET ${path} (${accept})`);
        return item;
      },
      close: () => reader.close(),
    };
  }

  /** `call`, expecting `status`; returns the body. */
  async function expectStatus(status: number, method: string, path: string, options?: CallOptions) {
    const answer = await call(method, path, options);
    if (answer.status !== status) {
      throw new Error(
        `${method} ${path}: expected ${status}, got ${answer.status} ${JSON.stringify(answer.body)}`,
      );
    }
    return answer.body as any;
  }

  return { checker, call, stream, expectStatus };
}

export type CheckedClient = ReturnType<typeof checkedClient>;
