/**
 * The URIs inside what a mounted app's or an upstream's tool or prompt answers, put under the
 * namespace they are served under (the rule of ./namespace.ts), so a client can read them back
 * through the app in front: a `resource_link` block's `uri`, and an embedded `resource` block's
 * `resource.uri`. Without it a link names the member's own URI (`billing://invoices/42`), which
 * the front does not serve (`resources/read` answers -32602), while `desk+billing://invoices/42` works.
 *
 * Only content blocks are rewritten: `structuredContent` is the tool's own data, held to its
 * output schema, and says nothing about which of its strings are URIs. Everything else of a
 * block, and blocks of other types, pass as they are. What an upstream sends is untrusted: a
 * block that is not an object, or a `uri` that is not a string, is left alone (the front client
 * sees what the upstream sent, as for any other malformed field).
 */
import { namespacedUri, namespacedViewUri } from './namespace';

/** How a URI is named in front: a function of the member's own URI. */
export type UriRewrite = (uri: string) => string;

/**
 * A mounted member's URI in front: `ui://` views keep their scheme (`ui://<namespace>/<rest>`, as
 * mount serves them), every other URI `<namespace>+<scheme>:<rest>`.
 */
export function mountedUriRewrite(namespace: string): UriRewrite {
  return (uri) => (uri.startsWith('ui://') ? namespacedViewUri(namespace, uri) : namespacedUri(namespace, uri));
}

/** One content block with its URI rewritten (a new object), or the block itself when it names no resource. */
export function namespacedBlock<T>(block: T, rewrite: UriRewrite): T {
  if (block === null || typeof block !== 'object') return block;
  const b = block as { readonly type?: unknown; readonly uri?: unknown; readonly resource?: unknown };
  if (b.type === 'resource_link' && typeof b.uri === 'string') return { ...block, uri: rewrite(b.uri) };
  if (b.type === 'resource' && b.resource !== null && typeof b.resource === 'object') {
    const uri = (b.resource as { readonly uri?: unknown }).uri;
    if (typeof uri === 'string') return { ...block, resource: { ...b.resource, uri: rewrite(uri) } };
  }
  return block;
}

/** A list of blocks rewritten; the same array when nothing in it names a resource (the common case allocates nothing). */
function namespacedBlocks<T>(blocks: readonly T[], rewrite: UriRewrite): readonly T[] {
  let out: T[] | undefined;
  for (let i = 0; i < blocks.length; i++) {
    const block = blocks[i] as T;
    const rewritten = namespacedBlock(block, rewrite);
    if (rewritten !== block) (out ??= blocks.slice())[i] = rewritten;
  }
  return out ?? blocks;
}

/**
 * A tool's result (`content`) or a prompt's (`messages[].content`, one block or a list) with
 * the URIs of its blocks rewritten. Anything else (an input round, an error object) is returned
 * as it is.
 */
export function namespacedResultUris<T>(result: T, rewrite: UriRewrite): T {
  if (result === null || typeof result !== 'object') return result;
  const r = result as { readonly content?: unknown; readonly messages?: unknown };
  if (Array.isArray(r.content)) {
    const content = namespacedBlocks(r.content as readonly unknown[], rewrite);
    return content === r.content ? result : { ...result, content };
  }
  if (Array.isArray(r.messages)) {
    let changed = false;
    const messages = (r.messages as readonly unknown[]).map((message) => {
      if (message === null || typeof message !== 'object') return message;
      const m = message as { readonly content?: unknown };
      const content = Array.isArray(m.content)
        ? namespacedBlocks(m.content as readonly unknown[], rewrite)
        : namespacedBlock(m.content, rewrite);
      if (content === m.content) return message;
      changed = true;
      return { ...message, content };
    });
    return changed ? { ...result, messages } : result;
  }
  return result;
}
