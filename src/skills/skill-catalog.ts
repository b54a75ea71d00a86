import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { ConfigurationError } from '../errors';
import { frontMatterOf, type SkillFrontMatter } from './skill-front-matter';

/** The Skills extension's per-skill limits (SEP-2640): what every conforming host accepts. */
export const SKILL_LIMITS = Object.freeze({ files: 512, bytes: 16 * 1024 * 1024 });

/** The media type of a directory resource. */
export const DIRECTORY_MIME_TYPE = 'inode/directory';

/** Agent Skills' name rule: lowercase letters, digits and single hyphens, 1–64, not at either end. */
const SKILL_NAME = /^[a-z0-9](?:[a-z0-9]|-(?!-)){0,62}[a-z0-9]$|^[a-z0-9]$/;

/** One file of a skill as listed: its URI, the `sha256:` digest of its bytes and their length. */
export interface SkillFileEntry {
  readonly uri: string;
  readonly digest: string;
  readonly size: number;
}

/** A skill entry (`skills/list`, `skills/get`): its `SKILL.md` URI, front matter verbatim, and every file. */
export interface SkillEntry {
  readonly uri: string;
  readonly frontmatter: SkillFrontMatter;
  readonly resources: readonly SkillFileEntry[];
}

/** A file served: its bytes and media type. */
export interface SkillFile {
  readonly bytes: Uint8Array;
  readonly mimeType: string;
}

/** A directory's direct child, as `resources/directory/read` lists it. */
export interface DirectoryChild {
  readonly uri: string;
  readonly name: string;
  readonly mimeType: string;
}

/**
 * `node:fs/promises`, loaded when a catalog is read (at the app's start), not when the root entry
 * is imported: an app without skills (a Worker's) never loads it.
 */
function files(): typeof import('node:fs/promises') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
  return require('node:fs/promises') as typeof import('node:fs/promises');
}

/**
 * The skills of a folder, read once (`load`): every directory under it that holds a `SKILL.md`
 * is a skill, at `<base><path>/SKILL.md` where `<path>` is its folder's path under the root;
 * each file is kept in memory with its digest, so what `resources/read` gives is what the entry
 * describes. Refused at load, naming the file: a `SKILL.md` without valid front matter, a name
 * that is not its folder's, a skill over the limits, a symbolic link.
 */
export class SkillCatalog {
  readonly skills: SkillEntry[] = [];
  private readonly files = new Map<string, SkillFile>();
  private readonly directories = new Map<string, DirectoryChild[]>();

  private constructor(private readonly base: string) {}

  /** Reads `folder`; `base` is the URI every skill's path follows (`skill://`, `skill://acme/`). */
  static async load(folder: string, base: string): Promise<SkillCatalog> {
    const catalog = new SkillCatalog(base);
    const problems: string[] = [];
    await catalog.walk(folder, [], problems);
    if (problems.length > 0) throw new ConfigurationError(`Invalid skills in ${folder}:\n${problems.map((p) => `- ${p}`).join('\n')}`);
    catalog.skills.sort((a, b) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0));
    return catalog;
  }

  /** The entry of the skill whose `SKILL.md` is at `uri`. */
  skill(uri: string): SkillEntry | undefined {
    return this.skills.find((s) => s.uri === uri);
  }

  /** A served file by URI. */
  file(uri: string): SkillFile | undefined {
    return this.files.get(uri);
  }

  /** A directory's direct children by its URI (no trailing slash), or undefined when it is not a directory served. */
  directory(uri: string): readonly DirectoryChild[] | undefined {
    return this.directories.get(uri);
  }

  /** Whether a URI is under this catalog's base. */
  owns(uri: string): boolean {
    return uri.startsWith(this.base);
  }

  private uriOf(segments: readonly string[]): string {
    return this.base + segments.map(encodeURIComponent).join('/');
  }

  /** Reads one folder: a skill if it holds `SKILL.md` (its files taken whole), else each subfolder in turn. */
  private async walk(folder: string, segments: string[], problems: string[]): Promise<void> {
    const names = (await files().readdir(folder)).sort();
    if (segments.length > 0 && names.includes('SKILL.md')) {
      await this.readSkill(folder, segments, problems);
      return;
    }
    for (const name of names) {
      const path = join(folder, name);
      if ((await files().lstat(path)).isDirectory()) await this.walk(path, [...segments, name], problems);
    }
  }

  private async readSkill(folder: string, segments: readonly string[], problems: string[]): Promise<void> {
    const skillMd = join(folder, 'SKILL.md');
    const files: { rel: string[]; bytes: Uint8Array }[] = [];
    const fault = await this.collect(folder, [], files);
    if (fault) return void problems.push(fault);
    const total = files.reduce((sum, f) => sum + f.bytes.length, 0);
    if (files.length > SKILL_LIMITS.files)
      return void problems.push(`${folder}: ${files.length} files, over the ${SKILL_LIMITS.files} a skill may have`);
    if (total > SKILL_LIMITS.bytes)
      return void problems.push(`${folder}: ${total} bytes, over the ${SKILL_LIMITS.bytes} (16 MiB) a skill may have`);
    const front = frontMatterOf(Buffer.from(files.find((f) => f.rel.length === 1 && f.rel[0] === 'SKILL.md')!.bytes).toString('utf8'));
    if (typeof front === 'string') return void problems.push(`${skillMd}: ${front}`);
    const folderName = segments[segments.length - 1]!;
    if (front.name !== folderName)
      return void problems.push(`${skillMd}: its name "${front.name}" must be its folder's name "${folderName}"`);
    if (!SKILL_NAME.test(front.name)) {
      return void problems.push(
        `${skillMd}: name "${front.name}" must be 1-64 lowercase letters, digits and single hyphens, not at either end`
      );
    }
    const resources = files.map(({ rel, bytes }) => {
      const uri = this.uriOf([...segments, ...rel]);
      this.files.set(uri, { bytes, mimeType: mimeTypeOf(rel[rel.length - 1]!) });
      return { uri, digest: `sha256:${createHash('sha256').update(bytes).digest('hex')}`, size: bytes.length };
    });
    this.indexDirectories(
      segments,
      files.map((f) => f.rel)
    );
    this.skills.push({ uri: this.uriOf([...segments, 'SKILL.md']), frontmatter: front, resources });
  }

  /** Every regular file under `folder` (SKILL.md first); a symbolic link or special file is a fault named here. */
  private async collect(folder: string, rel: string[], into: { rel: string[]; bytes: Uint8Array }[]): Promise<string | undefined> {
    for (const name of (await files().readdir(folder)).sort((a, b) => (a === 'SKILL.md' ? -1 : b === 'SKILL.md' ? 1 : a < b ? -1 : 1))) {
      const path = join(folder, name);
      const stat = await files().lstat(path);
      if (stat.isDirectory()) {
        const fault = await this.collect(path, [...rel, name], into);
        if (fault) return fault;
      } else if (stat.isFile()) {
        if (into.length >= SKILL_LIMITS.files) return `${folder}: more than the ${SKILL_LIMITS.files} files a skill may have`;
        into.push({ rel: [...rel, name], bytes: new Uint8Array(await files().readFile(path)) });
      } else return `${path}: not a regular file (symbolic links and special files are not served)`;
    }
    return undefined;
  }

  /** Records the skill root and each subfolder as a directory resource with its direct children. */
  private indexDirectories(segments: readonly string[], files: readonly string[][]): void {
    const add = (dir: readonly string[], child: DirectoryChild) => {
      const uri = this.uriOf(dir);
      const children = this.directories.get(uri) ?? [];
      if (!children.some((c) => c.uri === child.uri)) children.push(child);
      this.directories.set(uri, children);
    };
    for (const rel of files) {
      for (let depth = 0; depth < rel.length; depth++) {
        const parent = [...segments, ...rel.slice(0, depth)];
        const path = [...parent, rel[depth]!];
        const isFile = depth === rel.length - 1;
        add(parent, { uri: this.uriOf(path), name: rel[depth]!, mimeType: isFile ? mimeTypeOf(rel[depth]!) : DIRECTORY_MIME_TYPE });
      }
    }
  }
}

const MIME_TYPES: Readonly<Record<string, string>> = {
  md: 'text/markdown',
  txt: 'text/plain',
  json: 'application/json',
  yaml: 'application/yaml',
  yml: 'application/yaml',
  py: 'text/x-python',
  sh: 'text/x-shellscript',
  js: 'text/javascript',
  ts: 'text/plain',
  html: 'text/html',
  csv: 'text/csv',
  png: 'image/png',
  jpg: 'image/jpeg',
  pdf: 'application/pdf'
};

/** A file's media type by its extension (`application/octet-stream` when unknown). */
function mimeTypeOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return (dot > 0 && MIME_TYPES[name.slice(dot + 1).toLowerCase()]) || 'application/octet-stream';
}
