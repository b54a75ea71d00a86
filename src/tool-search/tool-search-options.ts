import { positiveInt } from '../config/option-checks';
import { ConfigurationError } from '../errors';

/**
 * The `toolSearch` option of an app (a gateway included: it is an app with proxied tools). With
 * it, `tools/list` shows a search tool and a call tool (and the tools pinned) instead of the whole
 * catalog; every tool stays callable by its own name too.
 */
export interface ToolSearchOptions {
  /** The search tool's name. Default `search_tools`. */
  searchToolName?: string;
  /** The call tool's name. Default `call_tool`. */
  callToolName?: string;
  /** How many tools a search returns when the query gives no `limit`. Default 5. */
  defaultLimit?: number;
  /** The largest `limit` a query may ask for. Default 20. */
  maxLimit?: number;
  /** Tools listed as well, beside the two (names that are not in the catalog are ignored: a gateway's tools come and go). */
  pinned?: readonly string[];
}

/** The option as the app takes it: `true` for the defaults. */
export type ToolSearchSetting = boolean | ToolSearchOptions;

/** The option with its defaults applied and checked. */
export interface ToolSearchSettings {
  readonly searchToolName: string;
  readonly callToolName: string;
  readonly defaultLimit: number;
  readonly maxLimit: number;
  readonly pinned: ReadonlySet<string>;
}

const NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/** The settings of `toolSearch`, or undefined when it is off. A misuse throws a ConfigurationError naming it. */
export function toolSearchSettings(setting: ToolSearchSetting | undefined): ToolSearchSettings | undefined {
  if (setting === undefined || setting === false) return undefined;
  if (setting !== true && (typeof setting !== 'object' || setting === null))
    throw new ConfigurationError(`toolSearch must be true, false or an options object (got ${String(setting)}).`);
  const options: ToolSearchOptions = setting === true ? {} : setting;
  const searchToolName = nameOf(options.searchToolName, 'search_tools', 'toolSearch.searchToolName');
  const callToolName = nameOf(options.callToolName, 'call_tool', 'toolSearch.callToolName');
  if (searchToolName === callToolName)
    throw new ConfigurationError(
      `toolSearch: the search tool and the call tool are both named ${searchToolName}; give them different names.`
    );
  const maxLimit = positiveInt(options.maxLimit, 20, 'toolSearch.maxLimit');
  const defaultLimit = positiveInt(options.defaultLimit, Math.min(5, maxLimit), 'toolSearch.defaultLimit');
  if (defaultLimit > maxLimit)
    throw new ConfigurationError(`toolSearch.defaultLimit (${defaultLimit}) is above toolSearch.maxLimit (${maxLimit}).`);
  if (options.pinned !== undefined && (!Array.isArray(options.pinned) || !options.pinned.every((n) => typeof n === 'string')))
    throw new ConfigurationError('toolSearch.pinned must be a list of tool names.');
  return Object.freeze({ searchToolName, callToolName, defaultLimit, maxLimit, pinned: new Set(options.pinned ?? []) });
}

function nameOf(value: unknown, fallback: string, option: string): string {
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || !NAME.test(value))
    throw new ConfigurationError(`${option} must be a tool name (1-128 of A-Z a-z 0-9 _ . -), got ${JSON.stringify(value)}.`);
  return value;
}
