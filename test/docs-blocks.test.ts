// Every shell and code block of the README and of the guides in docs/ runs as pasted against a
// started server (issue #29). Per page, one server (memory store) and one bash session run the
// page's blocks in order, so a variable one block sets ($TOKEN, $ID) carries to the next; a
// JavaScript block runs as a file with node in that session. Only two things are substituted:
// `localhost:4000`, the server's default address, becomes the test server's, and the lines that
// start the server or install the repository (`npm start &`, `npm ci`) are dropped, since it is
// running. A block that cannot run (it installs, starts Docker, listens forever) is marked by an
// HTML comment `<!-- not run: why -->` just above it; any other block of a code language runs.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Kind, OperationTypeNode, parse, print, type OperationDefinitionNode, type TypeNode } from 'graphql';
import { appHarness, wsClient } from './support/app';

/** Fenced blocks in these languages are code: they run, or say why not. */
const CODE = new Set(['sh', 'bash', 'js', 'ts', 'graphql']);
/** Blocks in these are not code (transcripts, headers, configuration, diagrams). */
const TEXT = new Set(['', 'text', 'json']);

interface Block {
  readonly page: string;
  readonly line: number;
  readonly lang: string;
  readonly body: string;
  /** The reason given in `<!-- not run: … -->`, when the block is marked. */
  readonly notRun?: string;
}

/** The fenced blocks of a page, dedented (blocks inside list items are indented). */
function blocksOf(page: string, text: string): Block[] {
  const lines = text.split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)```(\S*)\s*$/.exec(lines[i] as string);
    if (!open) continue;
    const indent = (open[1] as string).length;
    const end = lines.findIndex((l, j) => j > i && /^\s*```\s*$/.test(l));
    if (end < 0) throw new Error(`${page}:${i + 1}: unclosed code block`);
    const body = lines
      .slice(i + 1, end)
      .map((l) => l.slice(Math.min(indent, l.length - l.trimStart().length)))
      .join('\n');
    let k = i - 1;
    while (k >= 0 && (lines[k] as string).trim() === '') k--;
    const mark = /^\s*<!-- not run: (.+?) -->\s*$/.exec(lines[k] ?? '');
    blocks.push({ page, line: i + 1, lang: open[2] as string, body, ...(mark ? { notRun: mark[1] } : {}) });
    i = end;
  }
  return blocks;
}

const pages = [
  'README.md',
  ...readdirSync('docs', { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.md'))
    .map((f) => join('docs', f))
    .sort(),
];
const all = pages.flatMap((page) => blocksOf(page, readFileSync(page, 'utf8')));
const runnable = (b: Block) => CODE.has(b.lang) && !b.notRun;

it('every block is code that runs, code marked as not run, or text', () => {
  const unknown = all.filter((b) => !CODE.has(b.lang) && !TEXT.has(b.lang));
  expect(unknown.map((b) => `${b.page}:${b.line} ${b.lang}`)).toEqual([]);
  // A mark on a text block would hide nothing: marks are for code only.
  expect(all.filter((b) => b.notRun && !CODE.has(b.lang)).map((b) => `${b.page}:${b.line}`)).toEqual([]);
  // No example talks to another port than the server's default (port 3000 crept in before).
  const elsewhere = all.filter((b) => /localhost:(?!4000\b|4080\b)\d+/.test(b.body));
  expect(elsewhere.map((b) => `${b.page}:${b.line}`)).toEqual([]);
  const ran = all.filter(runnable).length;
  const marked = all.filter((b) => b.notRun).length;
  expect(ran).toBeGreaterThanOrEqual(35);
  expect(marked).toBeLessThanOrEqual(8);
});

const harness = appHarness();
afterAll(() => harness.stopAll());

/** Runs a bash script in its own process group; resolves with its output once it exits. */
function bash(script: string, cwd: string, env: NodeJS.ProcessEnv, timeoutMs: number) {
  const child: ChildProcess = spawn('bash', ['-c', script], { cwd, env, detached: true });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise<{ code: number | null; out: string }>((done) => {
    const timer = setTimeout(() => killGroup(child), timeoutMs);
    let exit: number | null = null;
    // Once bash is done, what its blocks left in the background (a bot that waits, a receiver, a
    // stream) is stopped; they hold the output pipes, so 'close' comes after that.
    child.on('exit', (code) => {
      clearTimeout(timer);
      exit = code;
      killGroup(child);
    });
    child.on('close', () => done({ code: exit, out }));
  });
}

function killGroup(child: ChildProcess) {
  try {
    process.kill(-(child.pid as number), 'SIGKILL');
  } catch {
    // the group is gone already
  }
}

/** Values for an operation's variables: a placeholder string, or 0 for numbers, false for flags. */
function placeholders(definition: OperationDefinitionNode): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const variable of definition.variableDefinitions ?? []) {
    let type: TypeNode = variable.type;
    while (type.kind !== Kind.NAMED_TYPE) type = type.type;
    const named = type.name.value;
    values[variable.variable.name.value] =
      named === 'Int' || named === 'Float' ? 0 : named === 'Boolean' ? false : '<placeholder>';
  }
  return values;
}

type Answer = { errors?: readonly { extensions?: { code?: unknown } }[] };
const codesOf = (answer: Answer) => (answer.errors ?? []).map((e) => String(e.extensions?.code ?? 'none'));

/** A query or mutation over HTTP: the error codes of its answer. */
async function postOnce(url: string, query: string, variables: Record<string, unknown>) {
  const res = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  return codesOf((await res.json()) as Answer);
}

/** A subscription over graphql-ws: the error codes of its first message (none: it ran). */
async function subscribeOnce(url: string, query: string, variables: Record<string, unknown>) {
  const client = wsClient(url);
  try {
    return await new Promise<string[]>((done) => {
      client.subscribe(
        { query, variables },
        {
          next: (answer) => done(codesOf(answer as Answer)),
          error: (error) =>
            done(Array.isArray(error) ? codesOf({ errors: error }) : [`closed: ${String(error)}`]),
          complete: () => done([]),
        },
      );
    });
  } finally {
    await client.dispose();
  }
}

const withPort = (text: string, port: string) =>
  text.replace(/\b(localhost|127\.0\.0\.1):4000\b/g, `127.0.0.1:${port}`);
/** Lines that start the server or install the repository: the test has done both. */
const SERVER_OR_INSTALL = /^(\w+=\S+\s+)*npm (start|ci)\b.*$/gm;

const withCode = pages.filter((page) => all.some((b) => b.page === page && runnable(b)));

// Pages run side by side: each has its own server, bash session and temporary folder (the fixed
// ports some blocks listen on, 8123 and 9000, are each on one page only).
it.concurrent.each(withCode)(
  '%s: its blocks run in order against a server',
  async (page) => {
    const blocks = all.filter((b) => b.page === page && runnable(b));
    const { url } = await harness.start('memory', {
      webhooks: { allowPrivate: true, intervalMs: 100 },
      // docs/apps.md starts the server with this operator key.
      app: { sweepIntervalMs: 200, tournamentSweepMs: 200, operatorKey: 'op-example-key-0123456789abcdef' },
    });
    const port = new URL(url).port;
    const dir = mkdtempSync(join(tmpdir(), 'docs-blocks-'));
    try {
      // The blocks run "in the clone": its examples, packages and installed modules are there.
      for (const entry of ['examples', 'packages', 'node_modules'])
        symlinkSync(resolve(entry), join(dir, entry));
      const steps: string[] = ['set -eo pipefail'];
      blocks.forEach((block, i) => {
        const name = `${block.page}:${block.line}`;
        const body = withPort(block.body, port);
        if (block.lang === 'sh' || block.lang === 'bash') {
          steps.push(`echo "@@ ${name}"`, body.replace(SERVER_OR_INSTALL, ''));
        } else if (block.lang === 'js' || block.lang === 'ts') {
          const file = `block-${i}.${/^import /m.test(body) ? 'mjs' : 'cjs'}`;
          writeFileSync(join(dir, file), body);
          steps.push(`echo "@@ ${name}"`, `node ${file}`);
        }
        steps.push(`echo "@@ ok ${name}"`);
      });
      const env = { ...process.env, BOARDHOST_URL: `http://127.0.0.1:${port}`, NODE_OPTIONS: '' };
      const { code, out } = await bash(steps.join('\n'), dir, env, 50_000);
      const done = blocks.filter((b) => b.lang !== 'graphql').map((b) => `${b.page}:${b.line}`);
      const failed = done.find((name) => !out.includes(`@@ ok ${name}\n`));
      if (code !== 0 || failed)
        throw new Error(`${failed ?? page} failed (exit ${code}):\n${out.slice(-4000)}`);
      // No answer was a server error, and no request was malformed: a block that passes an empty
      // or wrong id to the next request (an id read from an answer that was a refusal) shows here.
      expect(out).not.toMatch(/"code":"INTERNAL"|"status":5\d\d|urn:boardhost:problem:invalid-input/);

      // GraphQL blocks: each operation runs, queries and mutations over HTTP, subscriptions over
      // graphql-ws (until their first message), and is answered without a schema or limit error.
      // Placeholders ("<id>", and the values given to variables) may be refused by the service
      // (INVALID_INPUT, GAME_NOT_FOUND…; no token: UNAUTHENTICATED), which still shows it ran.
      let ran = 0;
      for (const block of blocks.filter((b) => b.lang === 'graphql')) {
        for (const definition of parse(block.body).definitions) {
          if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
          const query = print({ kind: Kind.DOCUMENT, definitions: [definition] });
          const variables = placeholders(definition);
          const codes =
            definition.operation === OperationTypeNode.SUBSCRIPTION
              ? await subscribeOnce(url, query, variables)
              : await postOnce(url, query, variables);
          const placeholder = query.includes('"<') || Object.keys(variables).length > 0;
          const refusals = placeholder
            ? /_NOT_FOUND$|^UNAUTHENTICATED$|^INVALID_INPUT$/
            : /_NOT_FOUND$|^UNAUTHENTICATED$/;
          const name = `${block.page}:${block.line} ${definition.name?.value ?? definition.operation}`;
          expect({ name, codes }).toEqual({ name, codes: codes.filter((c) => refusals.test(c)) });
          ran++;
        }
      }
      if (process.env.DOCS_BLOCKS_LOG)
        writeFileSync(process.env.DOCS_BLOCKS_LOG + page.replace(/\W/g, '_'), out);
      if (blocks.some((b) => b.lang === 'graphql')) expect(ran).toBeGreaterThan(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
  60_000,
);
