// Builds the browser playground (web/) with esbuild into dist/web/: hashed bundles under assets/
// (cached for good) and an index.html that names them (never cached). Run by `npm run build`, by
// `npm start` through build-if-stale.mjs, and by the browser tests (into a folder of their own).
//   node scripts/build-web.mjs [--root <checkout>] [--outdir <dir>] [--watch]
// --watch rebuilds on every change under web/ until stopped (what `npm run dev` runs).
import { build, context } from 'esbuild';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';

const args = process.argv.slice(2);
const flag = (name) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
const root = resolve(flag('--root') ?? join(import.meta.dirname, '..'));
const outdir = resolve(flag('--outdir') ?? join(root, 'dist', 'web'));
const watch = args.includes('--watch');

/** index.html with the hashed names of this build's script and stylesheet. */
function writeIndex(metafile) {
  const outputs = Object.entries(metafile.outputs).filter(([, o]) => o.entryPoint);
  const asset = (ext) => {
    const found = Object.keys(metafile.outputs).find((path) => path.endsWith(ext) && !path.endsWith('.map'));
    return found ? `/assets/${basename(found)}` : undefined;
  };
  if (outputs.length === 0) throw new Error('esbuild produced no entry point');
  const script = asset('.js');
  const style = asset('.css');
  const template = readFileSync(join(root, 'web', 'index.html'), 'utf8');
  const html = template
    .replace('<!-- style -->', style ? `<link rel="stylesheet" href="${style}" />` : '')
    .replace('<!-- script -->', `<script type="module" src="${script}"></script>`);
  writeFileSync(join(outdir, 'index.html'), html);
}

const options = {
  absWorkingDir: root,
  entryPoints: [join(root, 'web', 'src', 'main.tsx')],
  bundle: true,
  format: 'esm',
  target: ['es2022'],
  platform: 'browser',
  jsx: 'automatic',
  jsxImportSource: 'preact',
  outdir: join(outdir, 'assets'),
  entryNames: '[name]-[hash]',
  assetNames: '[name]-[hash]',
  minify: !watch,
  sourcemap: 'linked',
  metafile: true,
  legalComments: 'none',
  logLevel: 'warning',
};

rmSync(outdir, { recursive: true, force: true });
mkdirSync(join(outdir, 'assets'), { recursive: true });
if (watch) {
  const ctx = await context({
    ...options,
    plugins: [
      {
        name: 'index-html',
        setup(b) {
          b.onEnd((result) => {
            if (result.errors.length > 0 || !result.metafile) return;
            // Old hashed files pile up while watching; index.html always names the newest.
            writeIndex(result.metafile);
            console.log(`web: built ${relative(root, outdir)} (${new Date().toISOString()})`);
          });
        },
      },
    ],
  });
  await ctx.watch();
} else {
  const result = await build(options);
  writeIndex(result.metafile);
  console.log(`web: built ${relative(root, outdir) || outdir}`);
}
