import { ConfigurationError, FusionApp, Action, Mutation, Prompt, Resource, ToolProvider, view, type FusionAppOptions } from '../../../src';
import { cspEntryProblem } from '../../../src/views/csp-origins';
import { documentProblem } from '../../../src/views/view-descriptor';
import { connectTestClient } from '../../../src/testing';

const PAGE = '<!DOCTYPE html><html><body>ok</body></html>';

function startupError(options: FusionAppOptions): string[] {
  try {
    FusionApp.create(options);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigurationError);
    return (error as Error).message.split('\n- ').slice(1);
  }
  throw new Error('expected a startup error');
}

describe('startup checks of views', () => {
  it('names every misuse of the views option at once, each with its fix', () => {
    const problems = startupError({
      tools: [],
      views: [
        view({ uri: 'https://example.com/desk', name: 'web', html: PAGE }),
        view({ uri: 'ui://a', name: 'a', html: PAGE }),
        view({ uri: 'ui://a', name: 'again', html: PAGE }),
        view({ uri: 'ui://empty', name: 'empty', html: '   ' }),
        view({ uri: 'ui://fragment', name: 'fragment', html: '<div>not a document</div>' }),
        view({ uri: 'ui://missing', name: 'missing', html: { file: 'test/fixtures/views/nope.html' } }),
        view({
          uri: 'ui://csp',
          name: 'csp',
          html: PAGE,
          csp: {
            connectDomains: ['*', 'https://api.example.com/v1', 'http://api.example.com', 'https://ok.example.com'],
            frameDomains: ['example.com']
          }
        }),
        view({ uri: 'ui://perm', name: 'perm', html: PAGE, permissions: { usb: {} } as never, _meta: { ui: { csp: {} } } })
      ]
    });
    expect(problems).toEqual([
      expect.stringMatching(/^views\[0\] \(https:\/\/example.com\/desk\): uri .* is not a view's URI: views are served at ui:\/\/ URIs/),
      expect.stringMatching(/^views\[2\] \(ui:\/\/a\): another view has the URI ui:\/\/a: give each view its own/),
      expect.stringMatching(/^views\[3\] \(ui:\/\/empty\): html is empty: a view is a complete HTML5 document/),
      expect.stringMatching(/^views\[4\] \(ui:\/\/fragment\): html is not a complete HTML5 document: start it with <!DOCTYPE html>/),
      expect.stringMatching(/^views\[5\] \(ui:\/\/missing\): cannot read html file .*nope.html \(ENOENT\): give a path/),
      expect.stringMatching(/csp.connectDomains entry "\*" is a wildcard the host cannot narrow/),
      expect.stringMatching(/csp.connectDomains entry "https:\/\/api.example.com\/v1" is not an origin \(it has a path/),
      expect.stringMatching(/csp.connectDomains entry "http:\/\/api.example.com" is plain http outside loopback: use https:/),
      expect.stringMatching(/csp.frameDomains entry "example.com" (is not an origin|uses example.com:)/),
      expect.stringMatching(/^views\[7\] \(ui:\/\/perm\): _meta "ui" is set by the framework: declare it with the csp/),
      expect.stringMatching(/^views\[7\] \(ui:\/\/perm\): permissions takes camera: \{\}, .* \(not usb\)/)
    ]);
  });

  it('names a tool that names a view the app does not serve, or names it wrongly, and a resource that is also a view', () => {
    @ToolProvider()
    class Tools {
      @Action('a.list', { description: 'Lists', view: 'ui://nowhere' })
      list() {
        return 1;
      }
      @Action('a.web', { description: 'Web', view: 'https://example.com' })
      web() {
        return 1;
      }
      @Mutation('a.hidden', { description: 'Hidden', visibility: ['app', 'app'] as never })
      hidden() {
        return 1;
      }
      @Resource('ui://desk', { name: 'desk' })
      desk() {
        return 'x';
      }
    }
    const problems = startupError({ tools: [Tools], views: [view({ uri: 'ui://desk', name: 'desk', html: PAGE })] });
    expect(problems).toEqual([
      expect.stringMatching(/^Tools.web: view "https:\/\/example.com" is not a view's URI: name a ui:\/\/ URI the app declares in views/),
      expect.stringMatching(/^Tools.hidden: visibility must be \['model', 'app'\], \['model'\] or \['app'\]/),
      expect.stringMatching(
        /^Tools.list: tool "a.list" names view ui:\/\/nowhere, which the app does not serve \(the app's views are ui:\/\/desk\): declare it/
      ),
      expect.stringMatching(/^Tools.desk: @Resource ui:\/\/desk is also a view of the app: serve it one way/)
    ]);
  });

  it('accepts a tool that names a decorated ui:// resource', () => {
    @ToolProvider()
    class Tools {
      @Action('a.list', { description: 'Lists', view: 'ui://mine' })
      list() {
        return 1;
      }
      @Resource('ui://mine', { name: 'mine', mimeType: 'text/html;profile=mcp-app' })
      mine() {
        return PAGE;
      }
    }
    expect(() => FusionApp.create({ tools: [Tools] })).not.toThrow();
  });

  it('checks views again when tools are added at run time', async () => {
    @ToolProvider()
    class Late {
      @Action('late.list', { description: 'Lists', view: 'ui://late' })
      list() {
        return 1;
      }
    }
    const app = FusionApp.create({ tools: [], views: [view({ uri: 'ui://desk', name: 'desk', html: PAGE })] });
    expect(() => app.addTools(Late)).toThrow(/names view ui:\/\/late, which the app does not serve/);
    await app.close();
  });

  it('refuses a document function that returns no document when the view is read', async () => {
    const app = FusionApp.create({ tools: [], views: [view({ uri: 'ui://bad', name: 'bad', html: () => '' })], logger: () => undefined });
    const { client, close } = await connectTestClient(app);
    await expect(client.readResource({ uri: 'ui://bad' })).rejects.toMatchObject({ code: -32603 });
    await close();
    await app.close();
  });
});

describe('startup checks of titles, icons and _meta', () => {
  it('names every bad icon and _meta key on every kind of member', () => {
    @ToolProvider()
    class Members {
      @Action('m.tool', {
        description: 'A tool',
        title: '',
        icons: [
          { src: 'http://example.com/i.png' },
          { src: 'https://example.com/i.png', mimeType: 'png', sizes: ['48', 'any'], theme: 'blue' as never },
          { src: 'data:image/png;base64,AAAA' }
        ],
        _meta: { 'io.modelcontextprotocol/ui': {}, 'io.mcpfusion/interactive': false, ui: {}, 'com.example/ok': 1 }
      })
      tool() {
        return 1;
      }
      @Resource('demo://r', { name: 'r', icons: [{ src: 'javascript:alert(1)' }], _meta: { 'dev.mcp/x': 1, fn: (() => 1) as never } })
      resource() {
        return 'r';
      }
      @Prompt('m.prompt', { description: 'A prompt', icons: 'icon.png' as never, _meta: [] as never })
      prompt() {
        return 'p';
      }
    }
    const problems = startupError({ tools: [Members] });
    expect(problems).toEqual(
      expect.arrayContaining([
        'Members.tool: title must be a non-empty string (got "").',
        expect.stringMatching(/^Members.tool: icons\[0\].src "http:\/\/example.com\/i.png" uses http:: give an https: URL or a data: URL/),
        expect.stringMatching(/^Members.tool: icons\[1\].mimeType "png" is not a media type: write type\/subtype/),
        expect.stringMatching(/^Members.tool: icons\[1\].sizes must be a list of sizes like "48x48" or "any"/),
        expect.stringMatching(/^Members.tool: icons\[1\].theme must be 'light' or 'dark'/),
        expect.stringMatching(/^Members.tool: _meta "io.modelcontextprotocol\/ui" has a prefix the MCP specification reserves/),
        expect.stringMatching(/^Members.tool: _meta "io.mcpfusion\/interactive" is the framework's own prefix/),
        expect.stringMatching(/^Members.tool: _meta "ui" is set by the framework: declare it with the tool's view and visibility options/),
        expect.stringMatching(/^Members.resource: icons\[0\].src "javascript:alert\(1\)" uses javascript:/),
        expect.stringMatching(/^Members.resource: _meta "dev.mcp\/x" has a prefix the MCP specification reserves/),
        expect.stringMatching(/^Members.resource: _meta.fn is not a JSON value/),
        expect.stringMatching(/^Members.prompt: icons must be a list/),
        expect.stringMatching(/^Members.prompt: _meta must be a plain object of JSON values/)
      ])
    );
    expect(problems).toHaveLength(13);
  });
});

describe('CSP origins and documents', () => {
  it.each([
    ['https://api.example.com', undefined],
    ['wss://live.example.com', undefined],
    ['https://*.example.com', undefined],
    ['https://api.example.com:8443', undefined],
    ['http://localhost:5173', undefined],
    ['http://127.0.0.1:3000', undefined],
    ['ws://[::1]:8080', undefined],
    ['*', /wildcard/],
    ['https://*', /wildcard/],
    ['https://a.*.example.com', /wildcard/],
    ['https://example.com/path', /not an origin/],
    ['https://user@example.com', /not an origin/],
    ['http://example.com', /plain http outside loopback/],
    ['ws://example.com', /plain ws outside loopback: use wss:/],
    ['ftp://example.com', /uses ftp:/],
    ['example.com', /./]
  ])('%s', (entry, expected) => {
    const problem = cspEntryProblem(entry);
    if (expected) expect(problem).toMatch(expected);
    else expect(problem).toBeUndefined();
  });

  it('a document is complete HTML5: a doctype first (after comments and white space)', () => {
    expect(documentProblem('\n<!-- built --> <!doctype html><html></html>')).toBeUndefined();
    expect(documentProblem('<html></html>')).toMatch(/start it with <!DOCTYPE html>/);
    expect(documentProblem('')).toMatch(/is empty/);
    expect(documentProblem(undefined)).toMatch(/is empty/);
  });
});
