import { CliError } from '../cli-error';

/**
 * The templates `mcpfusion init --template <name>` writes: `node` is the starter (examples/starter),
 * the others the projects under examples/templates/<name>/ (one per deploy target, serving the
 * starter's tools). Kept apart from the copying code so that parsing the command line loads no
 * file-system code.
 */
export const TEMPLATE_NAMES = ['node', 'bun', 'deno', 'workers', 'hono', 'next'] as const;

/** One of {@link TEMPLATE_NAMES}. */
export type TemplateName = (typeof TEMPLATE_NAMES)[number];

/** The template a command line names, or a usage error that lists them all. */
export function templateName(text: string): TemplateName {
  const found = TEMPLATE_NAMES.find((name) => name === text);
  if (found === undefined) {
    throw new CliError(
      `unknown template "${text}": use ${TEMPLATE_NAMES.slice(0, -1).join(', ')} or ${TEMPLATE_NAMES[TEMPLATE_NAMES.length - 1]} (mcpfusion init --template bun my-server)`
    );
  }
  return found;
}
