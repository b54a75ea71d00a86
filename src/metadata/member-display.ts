import { isPlainJsonObject } from '../wire/own-properties';
import type { Icon, MemberMeta } from '../types/display';

/** What every member lists besides its name, as checked at startup. */
export interface DisplayFields {
  readonly title?: string;
  readonly icons?: readonly Icon[];
  readonly meta?: MemberMeta;
}

/** A media type without parameters: `type/subtype` of RFC 6838's restricted names. */
const MEDIA_TYPE = /^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}$/;
/** An icon size: `48x48` or `any` (a scalable image). */
const ICON_SIZE = /^(?:[1-9][0-9]{0,4}x[1-9][0-9]{0,4}|any)$/;
/** The `_meta` key prefix of the framework's own listing keys (`io.mcpfusion/interactive`). */
const FRAMEWORK_PREFIX = 'io.mcpfusion/';

/**
 * The `title`, `icons` and `_meta` options of a member, checked: each problem is pushed to
 * `problems` naming `where` and the fix, and the member lists only what passed. `reserved` are
 * `_meta` keys the framework sets itself for this kind of member (a tool's `ui`).
 */
export function displayOf(
  where: string,
  options: { title?: unknown; icons?: unknown; _meta?: unknown } | undefined,
  problems: string[],
  reserved: ReadonlyMap<string, string> = new Map()
): DisplayFields {
  const { title, icons, _meta: meta } = options ?? {};
  const before = problems.length;
  if (title !== undefined && (typeof title !== 'string' || title.trim() === '')) {
    problems.push(`${where}: title must be a non-empty string (got ${JSON.stringify(title)}).`);
  }
  if (icons !== undefined) {
    if (!Array.isArray(icons)) problems.push(`${where}: icons must be a list of { src, mimeType?, sizes?, theme? }.`);
    else icons.forEach((icon, index) => iconProblems(`${where}: icons[${index}]`, icon, problems));
  }
  if (meta !== undefined) metaProblems(where, meta, problems, reserved);
  if (problems.length > before) return {};
  return Object.freeze({
    ...(typeof title === 'string' ? { title } : {}),
    ...(icons ? { icons: Object.freeze((icons as Icon[]).map((icon) => Object.freeze({ ...icon }))) } : {}),
    ...(meta ? { meta: Object.freeze(structuredClone(meta) as MemberMeta) } : {})
  });
}

/** The problems of one icon: its `src` an https: or data: URL, `mimeType` type/subtype, `sizes` like 48x48 or any, `theme` light or dark. */
function iconProblems(where: string, icon: unknown, problems: string[]): void {
  if (!isPlainJsonObject(icon)) {
    problems.push(`${where} must be an object { src, mimeType?, sizes?, theme? }.`);
    return;
  }
  const { src, mimeType, sizes, theme } = icon;
  const srcIssue = iconSrcProblem(src);
  if (srcIssue) problems.push(`${where}.src ${srcIssue}`);
  if (mimeType !== undefined && (typeof mimeType !== 'string' || !MEDIA_TYPE.test(mimeType))) {
    problems.push(
      `${where}.mimeType ${JSON.stringify(mimeType)} is not a media type: write type/subtype, like image/png or image/svg+xml.`
    );
  }
  if (sizes !== undefined && !(Array.isArray(sizes) && sizes.every((size) => typeof size === 'string' && ICON_SIZE.test(size)))) {
    problems.push(`${where}.sizes must be a list of sizes like "48x48" or "any" (got ${JSON.stringify(sizes)}).`);
  }
  if (theme !== undefined && theme !== 'light' && theme !== 'dark') {
    problems.push(`${where}.theme must be 'light' or 'dark' (got ${JSON.stringify(theme)}).`);
  }
  for (const key of Object.keys(icon)) {
    if (!['src', 'mimeType', 'sizes', 'theme'].includes(key))
      problems.push(`${where} has "${key}", which an icon does not take: use src, mimeType, sizes and theme.`);
  }
}

/**
 * Why an icon's `src` cannot be listed, or undefined: clients fetch it, so only an https: URL
 * (no credentials in it) or a self-contained data: URL; http:, file: and javascript: are refused.
 */
function iconSrcProblem(src: unknown): string | undefined {
  const fix = 'give an https: URL or a data: URL (data:image/svg+xml;base64,…)';
  if (typeof src !== 'string' || src === '') return `is missing: ${fix}.`;
  let url: URL;
  try {
    url = new URL(src);
  } catch {
    return `${JSON.stringify(src)} is not a URL: ${fix}.`;
  }
  if (url.protocol === 'data:')
    return /^data:[^,]*,/i.test(src) ? undefined : `${JSON.stringify(src)} is not a data: URL (no comma before the data): ${fix}.`;
  if (url.protocol !== 'https:') return `${JSON.stringify(src)} uses ${url.protocol}: ${fix}.`;
  if (url.username || url.password) return `${JSON.stringify(src)} carries credentials, which every client would see: remove them.`;
  return undefined;
}

/**
 * Whether a `_meta` key is the protocol's own: a prefix (before the last `/`) one of whose labels
 * is `modelcontextprotocol` or `mcp` (`io.modelcontextprotocol/…`, `dev.mcp/…`) is reserved by
 * the MCP specification; `io.mcpfusion/…` keys are the framework's.
 */
function reservedKeyProblem(key: string): string | undefined {
  const slash = key.lastIndexOf('/');
  if (key.startsWith(FRAMEWORK_PREFIX)) return `"${key}" is the framework's own prefix (${FRAMEWORK_PREFIX})`;
  if (
    slash > 0 &&
    key
      .slice(0, slash)
      .split('.')
      .some((label) => label === 'modelcontextprotocol' || label === 'mcp')
  ) {
    return `"${key}" has a prefix the MCP specification reserves for the protocol`;
  }
  return undefined;
}

function metaProblems(where: string, meta: unknown, problems: string[], reserved: ReadonlyMap<string, string>): void {
  if (!isPlainJsonObject(meta)) {
    problems.push(`${where}: _meta must be a plain object of JSON values (got ${meta === null ? 'null' : typeof meta}).`);
    return;
  }
  for (const key of Object.keys(meta)) {
    const own = reserved.get(key);
    if (own) problems.push(`${where}: _meta "${key}" is set by the framework: ${own}.`);
    const issue = reservedKeyProblem(key);
    if (issue) problems.push(`${where}: _meta ${issue}: use a key of your own, like "com.example/${key.slice(key.lastIndexOf('/') + 1)}".`);
  }
  const path = nonJsonPath(meta, '_meta', new Set());
  if (path)
    problems.push(
      `${where}: ${path} is not a JSON value (functions, undefined, NaN, class instances and cycles are not): keep _meta plain JSON.`
    );
}

/** The path of the first value that JSON cannot carry as is, or undefined. */
function nonJsonPath(value: unknown, path: string, seen: Set<object>): string | undefined {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return undefined;
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : path;
  if (typeof value !== 'object') return path;
  if (seen.has(value)) return path;
  seen.add(value);
  try {
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        const inner = nonJsonPath(value[i], `${path}[${i}]`, seen);
        if (inner) return inner;
      }
      return undefined;
    }
    if (!isPlainJsonObject(value)) return path;
    for (const [key, inner] of Object.entries(value)) {
      const found = nonJsonPath(inner, `${path}.${key}`, seen);
      if (found) return found;
    }
    return undefined;
  } finally {
    seen.delete(value);
  }
}

/** The listing fields of a member's display (`title`, `icons`, `_meta`), omitted where absent; `extra` joins `_meta`. */
export function listedDisplay(display: DisplayFields, extra?: Record<string, unknown>): ListedDisplay {
  const meta = display.meta || extra ? { ...display.meta, ...extra } : undefined;
  return {
    ...(display.title ? { title: display.title } : {}),
    ...(display.icons
      ? { icons: display.icons.map((icon) => ({ ...icon, sizes: icon.sizes ? [...icon.sizes] : undefined })).map(dropUndefined) }
      : {}),
    ...(meta && Object.keys(meta).length > 0 ? { _meta: meta } : {})
  };
}

/** The listing's form of an icon (mutable arrays, as the SDK's types have them). */
type ListedIcon = { src: string; mimeType?: string; sizes?: string[]; theme?: 'light' | 'dark' };

/** The display fields of a listing entry. */
type ListedDisplay = { title?: string; icons?: ListedIcon[]; _meta?: Record<string, unknown> };

function dropUndefined(icon: { src: string; mimeType?: string; sizes?: string[]; theme?: 'light' | 'dark' }): ListedIcon {
  return Object.fromEntries(Object.entries(icon).filter(([, value]) => value !== undefined)) as ListedIcon;
}
