/** The usage lines of `inspector` (part of `mcpfusion --help`). */
export const INSPECTOR_USAGE = `  mcpfusion inspector <url> [--port M] [--token t] [--header 'Name: value' …]
  mcpfusion inspector --stdio '<command line>' [--port M]
                         the inspector in the browser, at http://127.0.0.1:M/… (BROWSER=none: print the URL, open nothing)`;
