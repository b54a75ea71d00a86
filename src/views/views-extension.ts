import type { FusionExtension } from '../extensions/extension';
import { UI_EXTENSION, VIEW_MIME_TYPE } from './view';

/**
 * MCP Apps (`io.modelcontextprotocol/ui`) on the extension API: it advertises the media types
 * of the views served, the setting MCP Apps names for the extension. It serves no method of its
 * own: the views are `ui://` resources of the app's resource catalog (`compile-views.ts`), and
 * whether a client renders them is read per request by `renders-views.ts`.
 */
export function viewsExtension(): FusionExtension {
  return { id: UI_EXTENSION, settings: { mimeTypes: [VIEW_MIME_TYPE] } };
}
