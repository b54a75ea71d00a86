import type { TemplateName } from './template-names';

/** A command `init` tells the user to run next. */
export interface NextStep {
  /** The command line. */
  readonly command: string;
  /** The package.json script or deno.json task it runs: left out when the project has none by that name. */
  readonly script?: string;
  /** What it does, as a comment beside it. */
  readonly what: string;
}

/** What `init` needs to know of a template beyond its files. */
export interface TemplateFacts {
  /** What the new project is, after "wrote <dir>:". */
  readonly what: string;
  /** Where its files come from, relative to the repository (`starter/` or `templates/<name>/` in the published package). */
  readonly source: string;
  /** The install command to run first, if the runtime needs one. */
  readonly install?: string;
  /** The commands after the install. */
  readonly steps: readonly NextStep[];
  /** The `.gitignore` written when the template has none. */
  readonly gitignore: string;
}

/**
 * Each template's facts. The commands are the ones its runtime documents; a script the template does
 * not declare is left out of what `init` prints, so the advice never names a script that is not there.
 */
export const TEMPLATES: Readonly<Record<TemplateName, TemplateFacts>> = {
  node: {
    what: 'a server with three kinds of tool and their tests',
    source: 'examples/starter',
    install: 'npm install',
    steps: [
      { command: 'npm run dev', script: 'dev', what: 'serves http://127.0.0.1:3000/mcp, reloads on every edit' },
      { command: 'npm test', script: 'test', what: 'type-check, then the tests' },
      { command: 'npm start', script: 'start', what: 'builds, then serves' }
    ],
    gitignore: 'node_modules/\ndist/\n'
  },
  bun: {
    what: "the starter's tools served by Bun (Bun.serve), with their tests",
    source: 'examples/templates/bun',
    install: 'bun install',
    steps: [
      { command: 'bun run dev', script: 'dev', what: 'serves it on Bun while you edit it' },
      { command: 'bun run test', script: 'test', what: 'its tests, on Bun' },
      { command: 'bun run start', script: 'start', what: 'serves it on Bun' }
    ],
    gitignore: 'node_modules/\ndist/\n'
  },
  deno: {
    what: "the starter's tools served by Deno (Deno.serve, npm: imports), with their tests",
    source: 'examples/templates/deno',
    // Deno fetches the npm: imports on the first run: nothing to install first.
    steps: [
      { command: 'deno task dev', script: 'dev', what: 'serves it on Deno while you edit it' },
      { command: 'deno task test', script: 'test', what: 'its tests, on Deno' },
      { command: 'deno task start', script: 'start', what: 'serves it on Deno' }
    ],
    gitignore: 'node_modules/\n'
  },
  workers: {
    what: "the starter's tools as a Cloudflare Worker, with their tests",
    source: 'examples/templates/workers',
    install: 'npm install',
    steps: [
      {
        command: 'cp .dev.vars.example .dev.vars',
        what: 'the STATE_KEY questions are signed with locally (put a secret of your own in it)'
      },
      { command: 'npx wrangler dev', what: 'serves the Worker locally in workerd (no account needed)' },
      { command: 'npm test', script: 'test', what: 'its tests' },
      { command: 'npx wrangler secret put STATE_KEY', what: 'the production key, once, before the first deploy' },
      { command: 'npx wrangler deploy', what: 'publishes it to your Cloudflare account' }
    ],
    gitignore: 'node_modules/\n.wrangler/\ndist/\n.dev.vars\n'
  },
  hono: {
    what: "the starter's tools mounted in a Hono app, with their tests",
    source: 'examples/templates/hono',
    install: 'npm install',
    steps: [
      { command: 'npm run dev', script: 'dev', what: 'serves the Hono app while you edit it' },
      { command: 'npm start', script: 'start', what: 'builds, then serves the Hono app on Node.js' },
      { command: 'npm run start:bun', script: 'start:bun', what: 'builds, then serves it on Bun' },
      { command: 'npm test', script: 'test', what: 'its tests' }
    ],
    gitignore: 'node_modules/\ndist/\n'
  },
  next: {
    what: "the starter's tools in a Next.js route handler (app/mcp/route.ts), with their tests",
    source: 'examples/templates/next',
    install: 'npm install',
    steps: [
      { command: 'npm run dev', script: 'dev', what: 'next dev: the endpoint at /mcp' },
      { command: 'npm test', script: 'test', what: 'its tests' },
      { command: 'npm run build && npm start', script: 'start', what: 'next build, then next start' }
    ],
    gitignore: 'node_modules/\n.next/\nnext-env.d.ts\n'
  }
};
