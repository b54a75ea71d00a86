import type { CallToolResult } from '@modelcontextprotocol/server';

/** A result decided inside the chain that bypasses the presenter (for example a declined request for input). */
export class EndOfCall {
  constructor(readonly result: CallToolResult) {}
}
