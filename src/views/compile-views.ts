import type { ReadResourceResult, Resource } from '@modelcontextprotocol/server';
import { injectable } from 'tsyringe';
import { listedDisplay } from '../metadata/member-display';
import type { ChainDependencies } from '../pipeline/chain-builder';
import type { CompiledMember } from '../pipeline/compiled-member';
import { compileMember } from '../pipeline/compile-member';
import { memberInfo } from '../pipeline/member-spec';
import { named, namedAfter } from '../pipeline/steps/named-step';
import { documentProblem, type ViewDescriptor } from './view-descriptor';
import { VIEW_MIME_TYPE } from './view';

/** A view ready to serve: its `resources/list` entry and the chain `resources/read` runs. */
export interface CompiledView {
  readonly uri: string;
  readonly listing: Resource;
  readonly scopes: readonly string[];
  readonly read: CompiledMember;
}

/**
 * What a view's chain names as its class: views are declared as options, not methods, so no
 * instance is ever resolved (their terminal serves the document), but every chain has a class
 * (for `ctx.tool.className`, spans and the DI check, which finds nothing to inject here).
 */
@injectable()
class ViewDocuments {}

/**
 * Compiles views into resources through the one compile path: global middleware, the queue,
 * timeouts, telemetry and the error boundary apply to `resources/read` of a view as to any
 * resource. Only the terminal (serve the document) and the presentation (`_meta.ui` on the
 * content item) are the view's own.
 */
export function compileViews(views: readonly ViewDescriptor[], deps: ChainDependencies): CompiledView[] {
  return views.map((view) => {
    const meta = { ...view.meta, ui: view.ui };
    const listing: Resource = {
      uri: view.uri,
      name: view.name,
      ...listedDisplay(view, { ui: view.ui }),
      ...(view.description ? { description: view.description } : {}),
      mimeType: VIEW_MIME_TYPE
    };
    const { document } = view;
    const read = compileMember(
      {
        kind: 'resource',
        info: memberInfo(view.uri, 'resource', false, 'views', view.name, []),
        label: `View ${view.uri}`,
        mountedUnder: view.mountedUnder,
        target: ViewDocuments,
        singleUseState: false,
        middleware: [],
        present: namedAfter('present', (state, next) =>
          next(state).then((text): ReadResourceResult => ({
            contents: [{ uri: view.uri, mimeType: VIEW_MIME_TYPE, text: text as string, _meta: meta }]
          }))
        ),
        terminal: named(
          'serve-view',
          typeof document === 'string'
            ? () => document
            : async (state) => {
                const text = await document(state.ctx);
                const issue = documentProblem(text);
                // A function's document is known only now: refuse to serve a broken one (an internal error, logged).
                if (issue) throw new Error(`The html function of view ${view.uri} returned a document that ${issue}`);
                return text;
              }
        )
      },
      deps
    );
    return Object.freeze({ uri: view.uri, listing, scopes: read.info.scopes, read });
  });
}
