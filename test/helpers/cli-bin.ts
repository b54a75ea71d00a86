import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The folder of the @mcpfusion/cli workspace (packages/cli). */
export const CLI_PACKAGE = join(__dirname, '..', '..', 'packages', 'cli');

/** The compiled `mcpfusion` program, as the package's `bin` names it (built by `npm run compile`). */
export const CLI_BIN = join(
  CLI_PACKAGE,
  (JSON.parse(readFileSync(join(CLI_PACKAGE, 'package.json'), 'utf8')) as { bin: Record<string, string> }).bin.mcpfusion
);
