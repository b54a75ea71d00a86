/**
 * Expected type errors (a `@ts-expect-error` suite): what a tool's method may return for its
 * declared `output`. Compiled by `tsc -p tsconfig.json` (npm test's compile step) and by
 * test/unit/decorators/handler-return-types.test.ts: an error where none is expected fails, and
 * so does a `@ts-expect-error` with no error under it (TS2578). Never run.
 */
import type { CallToolResult } from '@modelcontextprotocol/server';
import { IsInt, IsString } from 'class-validator';
import {
  Action,
  Input,
  Interactive,
  Mutation,
  ToolProvider,
  ask,
  progress,
  readInput,
  requireInput,
  type InputRound,
  type ProgressUpdate
} from '../../src';

class BookView {
  @IsInt() id!: number;
  @IsString() title!: string;
}

class BookQuery {
  @IsInt() id!: number;
}

interface BookRecord {
  id: number;
  title: string;
  internalNote: string;
}

declare function findBook(id: number): Promise<BookRecord>;

@ToolProvider()
export class Fits {
  @Action('books.plain', { description: 'A literal with the fields', output: BookView })
  plain(@Input() q: BookQuery) {
    return { id: q.id, title: 'Dune' };
  }

  @Action('books.record', { description: 'A record with more fields (the allowlist drops them)', output: BookView })
  record(@Input() q: BookQuery): Promise<BookRecord> {
    return findBook(q.id);
  }

  @Action('books.list', { description: 'A list', output: [BookView] })
  async list(): Promise<BookRecord[]> {
    return [await findBook(1)];
  }

  @Action('books.progress', { description: 'A generator that returns the output', output: BookView })
  async *slow(@Input() q: BookQuery): AsyncGenerator<ProgressUpdate, BookView, undefined> {
    yield progress(50, 'half');
    return { id: q.id, title: 'Dune' };
  }

  @Action('books.sync', { description: 'A synchronous generator', output: BookView })
  *sync(): Generator<ProgressUpdate, BookView, undefined> {
    yield progress(50, 'half');
    return { id: 1, title: 'Dune' };
  }

  @Interactive()
  @Mutation('books.delete', { description: 'Asks first', output: BookView })
  async remove(@Input() q: BookQuery): Promise<BookRecord | InputRound> {
    const book = await findBook(q.id);
    if (readInput<boolean>('confirm') === undefined) {
      return requireInput.elicit(`Delete ${book.title}?`, { confirm: ask.boolean('Delete it') });
    }
    return book;
  }

  @Action('books.presented', {
    description: 'A presenter takes whatever the method returns',
    output: BookView,
    presenter: { present: (value: unknown): CallToolResult => ({ content: [{ type: 'text', text: String(value) }] }) }
  })
  presented(): string {
    return 'anything';
  }

  @Action('books.text', { description: 'No output class: anything' })
  text(): string {
    return 'anything';
  }
}

@ToolProvider()
export class Misfits {
  // @ts-expect-error -- an id as a string where BookView declares a number
  @Action('books.wrong-type', { description: 'x', output: BookView })
  wrongType(@Input() q: BookQuery) {
    return { id: String(q.id), title: 'Dune' };
  }

  // @ts-expect-error -- a plain string for an object output
  @Action('books.string', { description: 'x', output: BookView })
  string(): string {
    return 'Book not found';
  }

  // @ts-expect-error -- a field missing
  @Action('books.missing', { description: 'x', output: BookView })
  async missing(@Input() q: BookQuery) {
    return { id: q.id };
  }

  // @ts-expect-error -- a generator that returns the wrong thing
  @Action('books.gen', { description: 'x', output: BookView })
  async *gen(): AsyncGenerator<ProgressUpdate, string, undefined> {
    yield progress(1, 'x');
    return 'done';
  }

  // @ts-expect-error -- one item where a list is declared
  @Action('books.one', { description: 'x', output: [BookView] })
  one(): BookView {
    return { id: 1, title: 'Dune' };
  }

  // @ts-expect-error -- a list where one object is declared
  @Mutation('books.many', { description: 'x', output: BookView })
  many(): BookView[] {
    return [];
  }

  // @ts-expect-error -- nothing
  @Mutation('books.nothing', { description: 'x', output: BookView })
  nothing(): void {}

  // @ts-expect-error -- unknown is not known to fit
  @Action('books.unknown', { description: 'x', output: BookView })
  unknown(): unknown {
    return null;
  }
}
