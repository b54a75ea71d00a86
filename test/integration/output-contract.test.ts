import 'reflect-metadata';
import { IsIn, IsInt, IsString, Min } from 'class-validator';
import { Action, FusionApp, Input, Mutation, ToolError, ToolProvider } from '../../src';
import { connectTestClient } from '../../src/testing';

class TicketQuery {
  @IsInt() @Min(1) id!: number;
  @IsIn(['ok', 'string', 'missing', 'wrong-type', 'refuse', 'nothing']) path!: string;
}

class TicketView {
  @IsInt() id!: number;
  @IsString() title!: string;
}

/**
 * One tool per way of breaking (or keeping) the contract its output class states. The compiler
 * refuses such returns (test/types/handler-returns.types.ts); these methods return `unknown` and
 * silence it, to see what a program that got past it (plain JavaScript, a cast) meets at run time.
 */
@ToolProvider()
class TicketTools {
  // @ts-expect-error -- returns what TicketView does not describe, on purpose
  @Mutation('tickets.delete', { description: 'Delete a ticket', output: TicketView })
  delete(@Input() q: TicketQuery): unknown {
    switch (q.path) {
      case 'ok':
        return { id: q.id, title: 'Printer on fire', internal: 'never listed' };
      case 'string':
        return 'Ticket not deleted';
      case 'missing':
        return { id: q.id };
      case 'wrong-type':
        return { id: String(q.id), title: 'Printer on fire' };
      case 'refuse':
        throw new ToolError(`Ticket ${q.id} is locked: ask an admin.`);
      default:
        return undefined;
    }
  }

  // @ts-expect-error -- returns what [TicketView] does not describe, on purpose
  @Action('tickets.list', { description: 'List tickets', output: [TicketView] })
  list(): unknown {
    return [{ id: 1, title: 'Printer on fire' }, { id: 2 }];
  }
}

const text = (result: { content?: unknown }) => ((result.content as { text: string }[])[0] ?? { text: '' }).text;

const EXPECTED: Record<string, string> = {
  string:
    'Tool tickets.delete declares output TicketView but returned a string ("Ticket not deleted"). Return a value with every field ' +
    'TicketView declares, or throw a ToolError for a refusal (an error result needs no structured content).',
  missing: 'Tool tickets.delete declares output TicketView but returned an object that does not match it (title: title is required).',
  'wrong-type':
    'Tool tickets.delete declares output TicketView but returned an object that does not match it (id: id must be an integer, not a string).',
  nothing: 'Tool tickets.delete declares output TicketView but returned nothing (undefined).'
};

describe('a tool that does not return what its output class declares', () => {
  let app: FusionApp;
  beforeEach(() => {
    app = FusionApp.create({ tools: [TicketTools] });
  });
  afterEach(() => app.close());

  describe.each(['modern', 'legacy-http', 'legacy-memory'] as const)('through a real SDK client (%s)', (era) => {
    it.each(Object.keys(EXPECTED))('returned %s: a tool error naming the tool, the class and what was returned', async (path) => {
      const { client, close } = await connectTestClient(app, { era });
      try {
        // The client listed the tools when it connected: it checks results against the listed outputSchema, as every SDK client does.
        const result = await client.callTool({ name: 'tickets.delete', arguments: { id: 7, path } });
        expect(result.isError).toBe(true);
        expect(result.structuredContent).toBeUndefined();
        expect(text(result).startsWith(EXPECTED[path])).toBe(true);
      } finally {
        await close();
      }
    });

    it('a conforming result and a ToolError refusal pass as they are', async () => {
      const { client, close } = await connectTestClient(app, { era });
      try {
        const ok = await client.callTool({ name: 'tickets.delete', arguments: { id: 7, path: 'ok' } });
        expect(ok.structuredContent).toEqual({ id: 7, title: 'Printer on fire' });
        const refused = await client.callTool({ name: 'tickets.delete', arguments: { id: 7, path: 'refuse' } });
        expect(refused).toMatchObject({ isError: true, content: [{ type: 'text', text: 'Ticket 7 is locked: ask an admin.' }] });
      } finally {
        await close();
      }
    });

    it('a list output: the item that lacks a field is named by its path', async () => {
      const { client, close } = await connectTestClient(app, { era });
      try {
        const result = await client.callTool({ name: 'tickets.list', arguments: {} });
        expect(result.isError).toBe(true);
        expect(text(result)).toContain(
          'declares output [TicketView] but returned an array that does not match it (items.1.title: title is required)'
        );
      } finally {
        await close();
      }
    });
  });

  it('app.callTool answers exactly what the clients read', async () => {
    for (const path of Object.keys(EXPECTED)) {
      const result = await app.callTool('tickets.delete', { id: 7, path });
      expect(result.isError).toBe(true);
      expect(text(result).startsWith(EXPECTED[path])).toBe(true);
    }
  });
});
