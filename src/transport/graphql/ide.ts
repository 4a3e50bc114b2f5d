import express, { type Request, type RequestHandler, type Router } from 'express';
import { dirname, join } from 'node:path';
import { GameError } from '../../service/errors';
import { sendGraphQLError } from './errors';

// GraphiQL at GET /graphql for browsers, entirely from this server: the UMD builds of GraphiQL (which
// bundles graphql and graphql-ws) and React are served from node_modules under /graphql/ide/, and
// the page's Content-Security-Policy lets it reach nothing but this origin (HTTP and WebSocket).

/** The files the page loads, by the name it loads them under. */
const ASSETS: Record<string, { readonly file: string; readonly type: string }> = {
  'react.production.min.js': {
    file: join(packageDir('react'), 'umd', 'react.production.min.js'),
    type: 'application/javascript',
  },
  'react-dom.production.min.js': {
    file: join(packageDir('react-dom'), 'umd', 'react-dom.production.min.js'),
    type: 'application/javascript',
  },
  'graphiql.min.js': {
    file: join(packageDir('graphiql'), 'graphiql.min.js'),
    type: 'application/javascript',
  },
  'graphiql.min.css': { file: join(packageDir('graphiql'), 'graphiql.min.css'), type: 'text/css' },
};

/**
 * Starts GraphiQL against this origin's /graphql: queries and mutations over HTTP, subscriptions over
 * graphql-ws. GraphiQL's fetcher picks the transport from the document it parsed last, which lags
 * the editor by a moment (a subscription run at once after pasting would go over HTTP and be
 * refused), so the operation's type is also read from the text itself when that parse is stale.
 */
const START = String.raw`(function () {
  var url = new URL('/graphql', window.location.href);
  var subscriptionUrl = url.href.replace(/^http/, 'ws');
  var base = GraphiQL.createFetcher({ url: url.href, subscriptionUrl: subscriptionUrl });

  // The top-level operations of a document: [{ operation, name }], comments and strings skipped.
  function operations(query) {
    var text = query.replace(/"""[\s\S]*?"""|"(?:[^"\\\n]|\\.)*"|#[^\n]*/g, ' ');
    var words = text.match(/[{}]|[_A-Za-z][_0-9A-Za-z]*/g) || [];
    var depth = 0, found = [];
    for (var i = 0; i < words.length; i++) {
      var w = words[i];
      if (w === '{') {
        if (depth === 0 && (i === 0 || words[i - 1] === '}')) found.push({ operation: 'query' });
        depth++;
      } else if (w === '}') {
        depth = Math.max(0, depth - 1);
      } else if (depth === 0 && (w === 'query' || w === 'mutation' || w === 'subscription')) {
        var next = words[i + 1];
        found.push({ operation: w, name: next && next !== '{' ? next : undefined });
      } else if (depth === 0 && w === 'fragment') {
        found.push({ operation: 'fragment' });
      }
    }
    return found.filter(function (d) { return d.operation !== 'fragment'; });
  }

  function fetcher(params, options) {
    var ast = options && options.documentAST;
    var fresh = ast && ast.loc && ast.loc.source && ast.loc.source.body === params.query;
    if (!fresh) {
      var ops = operations(params.query || '');
      var chosen = params.operationName
        ? ops.filter(function (d) { return d.name === params.operationName; })[0]
        : ops.length === 1 ? ops[0] : undefined;
      var definitions = chosen && chosen.operation === 'subscription'
        ? [{ kind: 'OperationDefinition', operation: 'subscription',
             name: params.operationName ? { kind: 'Name', value: params.operationName } : undefined }]
        : [];
      options = Object.assign({}, options, { documentAST: { kind: 'Document', definitions: definitions } });
    }
    return base(params, options);
  }

  var root = ReactDOM.createRoot(document.getElementById('graphiql'));
  root.render(
    React.createElement(GraphiQL, {
      fetcher: fetcher,
      defaultEditorToolsVisibility: true,
      defaultQuery: '# Boardhost GraphQL. To act as a seat or account, put\n# { "Authorization": "Bearer <token>" }\n# in the Headers tab below.\n\nquery {\n  kinds {\n    kind\n    seatNames\n  }\n}\n',
    }),
  );
})();
`;

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Boardhost GraphiQL</title>
    <link rel="icon" href="data:," />
    <style>
      html, body, #graphiql { height: 100%; margin: 0; }
    </style>
    <link rel="stylesheet" href="/graphql/ide/graphiql.min.css" />
  </head>
  <body>
    <div id="graphiql">Loading GraphiQL…</div>
    <script src="/graphql/ide/react.production.min.js"></script>
    <script src="/graphql/ide/react-dom.production.min.js"></script>
    <script src="/graphql/ide/graphiql.min.js"></script>
    <script src="/graphql/ide/start.js"></script>
  </body>
</html>
`;

/** Only this origin: scripts and styles from it, data: fonts and images, HTTP and WebSocket to it. */
function contentSecurityPolicy(host: string | undefined): string {
  const sockets = host && /^[\w.:[\]-]+$/.test(host) ? ` ws://${host} wss://${host}` : '';
  return [
    "default-src 'none'",
    "script-src 'self'",
    // GraphiQL and CodeMirror set style attributes; the page's own <style> is inline too.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    `connect-src 'self'${sockets}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** True for a browser's navigation to /graphql: it prefers HTML and asks no query. */
export function wantsIde(req: Request): boolean {
  if (req.method !== 'GET' || req.query.query !== undefined) return false;
  return req.accepts(['application/json', 'application/graphql-response+json', 'text/html']) === 'text/html';
}

/** GET /graphql (browsers) and GET /graphql/ide/*; anything else goes on to Apollo. */
export function graphiqlRouter(): Router {
  const router = express.Router();
  const page: RequestHandler = (req, res, next) => {
    if (!wantsIde(req)) return next();
    res
      .status(200)
      .type('html')
      .setHeader('Content-Security-Policy', contentSecurityPolicy(req.headers.host))
      .setHeader('Cache-Control', 'no-cache')
      .send(PAGE);
  };
  router.get('/graphql', page);
  router.get('/graphql/ide/start.js', (_req, res) => {
    res.type('application/javascript').setHeader('Cache-Control', 'no-cache').send(START);
  });
  router.get('/graphql/ide/:name', (req, res, next) => {
    const asset = Object.hasOwn(ASSETS, req.params.name) ? ASSETS[req.params.name] : undefined;
    if (!asset) return next();
    res.type(asset.type).sendFile(asset.file, { maxAge: '1d' });
  });
  router.use('/graphql/ide', (req, res) =>
    sendGraphQLError(res, new GameError('NOT_FOUND', `No route ${req.method} ${req.originalUrl}`)),
  );
  return router;
}

/** The directory of an installed package (resolved from its package.json). */
function packageDir(name: string): string {
  return dirname(require.resolve(`${name}/package.json`));
}
