import type { FusionExtension } from '../extensions/extension';
import { ConfigurationError, InvalidParamsError } from '../errors';
import { UnknownResourceError } from '../errors/request-errors';
import type * as SkillCatalogModule from './skill-catalog';
import type { SkillCatalog } from './skill-catalog';
import { pageOf } from './skill-pages';

/** The Skills extension's identifier (SEP-2640). */
export const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills';

/** Options of {@link skills}. */
export interface SkillsOptions {
  /** The folder of skill folders: each folder under it that holds a `SKILL.md` is a skill (named by its folder). */
  readonly folder: string;
  /** An organisational prefix: `'acme'` serves `skill://acme/<skill>/SKILL.md`. Default none (`skill://<skill>/SKILL.md`). */
  readonly prefix?: string;
  /** Serve `resources/directory/read` (and advertise `directoryRead: true`). Default `true`. */
  readonly directoryRead?: boolean;
  /** `ttlMs` of `skills/list` and `skills/get`: how long a host may treat an entry as current. Default 300,000 (5 minutes). */
  readonly ttlMs?: number;
  /** `cacheScope` of the same results. Default `'public'` (every caller sees the same skills). */
  readonly cacheScope?: 'public' | 'private';
  /** Entries per `skills/list` page and per directory page. Default 50. */
  readonly pageSize?: number;
}

/**
 * The Skills extension (`io.modelcontextprotocol/skills`, SEP-2640), written on the extension
 * API: skills served from a folder of skill folders (read once, when the app starts), each file
 * at `skill://[<prefix>/]<path>/<file>`, readable with `resources/read`. It serves `skills/list`
 * (paged, with `ttlMs` and `cacheScope`), `skills/get` (-32602 for a URI that is no skill of
 * this server) and, with `directoryRead`, `resources/directory/read`. Each entry carries the
 * `SKILL.md` front matter verbatim and every file with its size and `sha256:` digest; a skill
 * over the spec's limits (512 files, 16 MiB) or with a malformed `SKILL.md` fails the start,
 * naming the file.
 *
 * @example
 * ```ts
 * const app = FusionApp.create({ tools: [BillingTools], extensions: [skills({ folder: './skills' })] });
 * ```
 */
export function skills(options: SkillsOptions): FusionExtension {
  if (!options || typeof options.folder !== 'string' || options.folder === '')
    throw new ConfigurationError('skills() needs { folder: "<path of the skills folder>" }.');
  const prefix = options.prefix;
  if (prefix !== undefined && !/^[a-z0-9][a-z0-9.-]*(\/[A-Za-z0-9._~-]+)*$/.test(prefix)) {
    throw new ConfigurationError(
      `skills({ prefix: ${JSON.stringify(prefix)} }): the prefix must be "/"-separated URI segments, its first a host name (acme, acme/billing).`
    );
  }
  const base = `skill://${prefix ? `${prefix}/` : ''}`;
  const directoryRead = options.directoryRead !== false;
  const pageSize = options.pageSize ?? 50;
  const cache = { ttlMs: options.ttlMs ?? 300_000, cacheScope: options.cacheScope ?? 'public' };
  let catalog: SkillCatalog | undefined;
  const loaded = (): SkillCatalog => {
    if (!catalog) throw new ConfigurationError('The skills extension has not started');
    return catalog;
  };
  const uriParam = (params: Readonly<Record<string, unknown>>, method: string): string => {
    if (typeof params.uri !== 'string' || params.uri === '')
      throw new InvalidParamsError(`Invalid params for ${method}: uri must be a non-empty string`);
    return params.uri;
  };
  return {
    id: SKILLS_EXTENSION,
    settings: directoryRead ? { directoryRead: true } : {},
    methods: {
      'skills/list': ({ params }) => {
        const page = pageOf(loaded().skills, params.cursor, pageSize, 'skills/list');
        return { skills: page.items, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}), ...cache };
      },
      'skills/get': ({ params }) => {
        const uri = uriParam(params, 'skills/get');
        const skill = loaded().skill(uri);
        if (!skill) throw new InvalidParamsError(`No skill is served at ${uri}`);
        return { skill, ...cache };
      },
      ...(directoryRead
        ? {
            'resources/directory/read': ({ params }) => {
              const uri = uriParam(params, 'resources/directory/read');
              const children = loaded().directory(uri);
              if (!children) throw new InvalidParamsError(`${uri} is not a directory resource of this server`);
              const page = pageOf(children, params.cursor, pageSize, 'resources/directory/read');
              return { resources: page.items, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}), ...cache };
            }
          }
        : {})
    },
    resources: {
      owns: (uri) => uri.startsWith(base),
      read: (uri) => {
        const file = loaded().file(uri);
        if (!file) throw new UnknownResourceError(uri);
        const text = utf8(file.bytes);
        return {
          contents: [
            text !== undefined
              ? { uri, mimeType: file.mimeType, text }
              : { uri, mimeType: file.mimeType, blob: Buffer.from(file.bytes).toString('base64') }
          ]
        };
      }
    },
    async start() {
      // The catalog (its folder reader, front-matter parser, hashes) is loaded when the extension
      // starts, not with the package: most apps serve no skills.
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
      const { SkillCatalog } = require('./skill-catalog') as typeof SkillCatalogModule;
      catalog = await SkillCatalog.load(options.folder, base);
    }
  };
}

const DECODER = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The bytes as text when they are valid UTF-8 (sent as `text`, whose UTF-8 bytes are exactly these), else undefined. */
function utf8(bytes: Uint8Array): string | undefined {
  try {
    return DECODER.decode(bytes);
  } catch {
    return undefined;
  }
}
