import type { Tool } from '@modelcontextprotocol/server';
import { ToolIndex } from '../../../src/advanced';
import { stem, tokenize } from '../../../src/tool-search/tokenize';
import { Bm25Index } from '../../../src/tool-search/bm25-index';

describe('tokenize', () => {
  it('splits names on dots, underscores, hyphens and camelCase, in lower case', () => {
    expect(tokenize('billing.refundInvoice')).toEqual(['bill', 'refund', 'invoic']);
    expect(tokenize('list_directory_with_sizes')).toEqual(['list', 'directory', 'siz']);
    expect(tokenize('get-HTTPResponse2xx')).toEqual(['get', 'http', 'respons', '2', 'xx']);
  });

  it('drops words that say nothing of what a tool does', () => {
    expect(tokenize('Use this tool to list all of the files')).toEqual(['list', 'fil']);
  });

  it('brings plural and verb forms to one stem', () => {
    for (const group of [
      ['file', 'files'],
      ['create', 'created', 'creating', 'creates'],
      ['list', 'lists', 'listed', 'listing'],
      ['entry', 'entries'],
      ['stop', 'stopped', 'stopping']
    ])
      expect(new Set(group.map(stem)).size).toBe(1);
    expect(stem('run')).toBe('run');
    expect(stem('class')).toBe('class');
  });
});

describe('Bm25Index', () => {
  it('ranks the document where a rare query term weighs most first, and finds nothing for unknown terms', () => {
    const index = new Bm25Index([
      {
        key: 'a',
        terms: new Map([
          ['invoic', 1],
          ['list', 1]
        ])
      },
      {
        key: 'b',
        terms: new Map([
          ['invoic', 3],
          ['refund', 3]
        ])
      },
      {
        key: 'c',
        terms: new Map([
          ['list', 1],
          ['fil', 1]
        ])
      }
    ]);
    expect(index.rank(['refund', 'invoic']).map((m) => m.key)).toEqual(['b', 'a']);
    expect(index.rank(['zzz'])).toEqual([]);
  });
});

describe('ToolIndex', () => {
  const tools: Tool[] = [
    {
      name: 'files.move',
      description: 'Moves or renames a file',
      inputSchema: { type: 'object', properties: { source: {}, destination: {} } }
    },
    {
      name: 'mail.send',
      description: 'Sends an email',
      inputSchema: { type: 'object', properties: { recipient: { description: 'Who gets it' } } }
    },
    { name: 'crm.contact', title: 'Contact details', description: 'Reads a contact', inputSchema: { type: 'object' } }
  ];
  const index = new ToolIndex(tools);

  it('matches names, titles, descriptions and parameter names and descriptions', () => {
    expect(index.search('rename a file', 5)[0].name).toBe('files.move');
    expect(index.search('destination', 5)[0].name).toBe('files.move');
    expect(index.search('who gets it', 5)[0].name).toBe('mail.send');
    expect(index.search('details', 5)[0].name).toBe('crm.contact');
  });

  it('puts a tool named exactly in the query first, keeps to the limit and to what is allowed', () => {
    expect(index.search('crm.contact files', 5)[0].name).toBe('crm.contact');
    expect(index.search('file email contact', 1)).toHaveLength(1);
    expect(index.search('rename a file', 5, (tool) => tool.name !== 'files.move').map((t) => t.name)).not.toContain('files.move');
  });
});
